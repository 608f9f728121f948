import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { memoryLimitDefaults } from '../../config';
import { RecentList } from '../../domain/recentList';
import type { Logger } from '../../logging/logger';
import { findOperation, type Operation } from './operations';

/** An answer its operation does not declare: a status missing from /openapi.json, or a body off its schema. */
export interface ContractViolation {
  method: string;
  path: string;
  operation: string;
  status: number;
  problem: string;
}

/** The newest RECORDED_VIOLATIONS_MAX only: a process nobody reads them from must not grow with them. */
export const recordedContractViolations = new RecentList<ContractViolation>(
  memoryLimitDefaults.RECORDED_VIOLATIONS_MAX,
);

/** Violations seen since the last call (the test set-up fails the test that caused them). */
export function takeContractViolations(): ContractViolation[] {
  return recordedContractViolations.take();
}

function problemWith(operation: Operation, status: number, body: unknown, isJson: boolean): string | undefined {
  const declared = operation.responses.get(status);
  if (!declared) return `status ${status} is not declared (declared: ${[...operation.responses.keys()].join(', ')})`;
  if (!declared.schema)
    return isJson ? `status ${status} is declared without a body, but a JSON body was sent` : undefined;
  if (!isJson) return declared.html ? undefined : `status ${status} is declared as JSON, but the answer is not`;
  // What the client sees: dates as strings, undefined fields gone.
  const wire: unknown = body === undefined ? undefined : JSON.parse(JSON.stringify(body));
  const parsed = declared.schema.safeParse(wire);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  return `body of ${status} does not match its schema: ${issue.path.join('.') || '(root)'}: ${issue.message}`;
}

/**
 * Checks every answer of an operation defined with `defineRoute` against what the operation
 * declares (status, then body against the status's schema). It never changes what the client
 * gets: violations are logged and recorded, and tests turn them into failures
 * (test/helpers/contractChecks.ts). On in test mode (`CHECK_RESPONSES`).
 */
export function checkResponseContract(logger: Logger): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const path = req.originalUrl.split('?')[0]!;
    const check = (body: unknown, isJson: boolean) => {
      const operation = findOperation(req.method, path);
      const problem = operation && problemWith(operation, res.statusCode, body, isJson);
      if (!operation || !problem) return;
      const violation = {
        method: req.method,
        path,
        operation: `${req.method} ${operation.path}`,
        status: res.statusCode,
        problem,
      };
      recordedContractViolations.push(violation);
      logger.error({ violation }, 'answer does not match the OpenAPI document');
    };
    let sentJson = false;
    const json = res.json.bind(res);
    // JSON answers are checked as they are sent (before the client can see them), others once finished.
    res.json = (body: unknown) => {
      sentJson = true;
      check(body, true);
      return json(body);
    };
    res.once('finish', () => {
      if (!sentJson) check(undefined, false);
    });
    next();
  };
}
