import { z } from 'zod';
import { declineCategoryOf } from '../declineCodes';
import {
  ProcessorTechnicalError,
  type AuthenticationResult,
  type AuthorizeResult,
  type FollowUpResult,
  type LookupResult,
  type ReversalResult,
} from '../types';
import { classifySandboxCode } from './codes';

/**
 * The sandbox acquirer's answers → the engine's results. Pure: the shared executor has already
 * turned timeouts, network failures, redirects and 5xx into ProcessorTechnicalErrors.
 */

const disputeSchema = z.object({ reason: z.string(), amount: z.number().int() });
const failureSchema = z.object({
  status: z.enum(['declined', 'failed']),
  code: z.string().min(1),
  message: z.string().optional(),
  id: z.string().optional(),
});
const authorizeAnswerSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('approved'),
    id: z.string().min(1),
    captured: z.boolean(),
    disputeOpened: disputeSchema.optional(),
  }),
  z.object({
    status: z.literal('declined'),
    id: z.string().optional(),
    code: z.string().min(1),
    message: z.string().optional(),
  }),
  z.object({ status: z.literal('requires_3ds'), code: z.string().optional(), message: z.string().optional() }),
  z.object({
    status: z.literal('requires_action'),
    id: z.string().min(1),
    action: z.object({
      url: z.string().url(),
      method: z.enum(['GET', 'POST']),
      data: z.record(z.string(), z.string()).optional(),
    }),
  }),
]);
const followUpAnswerSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('succeeded'), id: z.string().min(1), disputeOpened: disputeSchema.optional() }),
  z.object({ status: z.literal('failed'), code: z.string().min(1), message: z.string().optional() }),
]);

const reversalAnswerSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('succeeded'),
    reversed: z.boolean(),
    id: z.string().min(1).optional(),
    amount: z.number().int().nonnegative(),
  }),
  z.object({ status: z.literal('failed'), code: z.string().min(1), message: z.string().optional() }),
]);

/** Acquirer HTTP status + body → result; 4xx answers with a code are failures as data, others technical. */
export function toAuthorizeResult(status: number, body: unknown): AuthorizeResult {
  const answer = parseAnswer(status, body, authorizeAnswerSchema, 'declined');
  switch (answer.status) {
    case 'approved':
      return {
        outcome: 'approved',
        processorReference: answer.id,
        captured: answer.captured,
        ...(answer.disputeOpened ? { disputeOpened: answer.disputeOpened } : {}),
      };
    case 'declined': {
      const code = classifySandboxCode(answer.code);
      return {
        outcome: 'declined',
        code,
        category: declineCategoryOf(code),
        message: answer.message ?? answer.code,
        ...(answer.id ? { processorReference: answer.id } : {}),
      };
    }
    case 'requires_3ds':
      return {
        outcome: 'requires_3ds',
        code: answer.code ?? 'authentication_required',
        message: answer.message ?? '3-D Secure authentication required',
      };
    case 'requires_action':
      return { outcome: 'requires_action', processorReference: answer.id, action: answer.action };
  }
}

export function toFollowUpResult(status: number, body: unknown): FollowUpResult {
  const answer = parseAnswer(status, body, followUpAnswerSchema, 'failed');
  switch (answer.status) {
    case 'succeeded':
      return {
        outcome: 'succeeded',
        processorReference: answer.id,
        ...(answer.disputeOpened ? { disputeOpened: answer.disputeOpened } : {}),
      };
    case 'failed':
      return failure(answer.code, answer.message);
  }
}

function failure(vendorCode: string, message: string | undefined) {
  const code = classifySandboxCode(vendorCode);
  return { outcome: 'failed' as const, code, category: declineCategoryOf(code), message: message ?? vendorCode };
}

export function toReversalResult(status: number, body: unknown): ReversalResult {
  const answer = parseAnswer(status, body, reversalAnswerSchema, 'failed');
  if (answer.status === 'failed') return failure(answer.code, answer.message);
  if (!answer.reversed) return { outcome: 'nothing_to_reverse' };
  if (!answer.id)
    throw new ProcessorTechnicalError('sandbox acquirer reversed without naming the transaction', 'invalid_response');
  return { outcome: 'reversed', processorReference: answer.id, amount: answer.amount };
}

const lookupAnswerSchema = z.discriminatedUnion('found', [
  z.object({ found: z.literal(false) }),
  z.object({
    found: z.literal(true),
    id: z.string().min(1),
    status: z.enum(['authorized', 'captured', 'declined', 'voided', 'refunded', 'pending']),
    amount: z.number().int().nonnegative(),
    code: z.string().optional(),
  }),
]);

export function toLookupResult(status: number, body: unknown): LookupResult {
  if (status === 401 || status === 403)
    throw new ProcessorTechnicalError('sandbox acquirer rejected the credentials', 'invalid_credentials');
  if (status === 429) throw new ProcessorTechnicalError('sandbox acquirer rate limited the call', 'rate_limited');
  if (status < 200 || status >= 300)
    throw new ProcessorTechnicalError(`sandbox acquirer answered HTTP ${status} to a lookup`, 'invalid_request');
  const parsed = lookupAnswerSchema.safeParse(body);
  if (!parsed.success)
    throw new ProcessorTechnicalError('sandbox acquirer answered a lookup in an unknown shape', 'invalid_response');
  const answer = parsed.data;
  if (!answer.found) return { outcome: 'not_found' };
  return { outcome: 'found', processorReference: answer.id, status: answer.status, amount: answer.amount };
}

/** A step-up's authorization read back (GET /authorizations/:id): final, or pending while the shopper is at the page. */
export function toAuthenticationResult(status: number, body: unknown): AuthenticationResult {
  const found = toLookupResult(status, body);
  if (found.outcome === 'not_found')
    throw new ProcessorTechnicalError('sandbox acquirer does not know the authorization', 'invalid_response');
  const reference = found.processorReference;
  switch (found.status) {
    case 'pending':
      return { outcome: 'pending' };
    case 'authorized':
    case 'captured':
      return { outcome: 'approved', processorReference: reference, captured: found.status === 'captured' };
    case 'declined': {
      const code = classifySandboxCode(declinedCode(body) ?? 'card_declined');
      return {
        outcome: 'declined',
        code,
        category: declineCategoryOf(code),
        message: code,
        processorReference: reference,
      };
    }
    case 'voided':
    case 'refunded':
      // Only a reversal of the attempt's key ends a pending step-up this way (the engine gave up waiting).
      return {
        outcome: 'declined',
        code: 'authentication_timeout',
        category: declineCategoryOf('authentication_timeout'),
        message: `The authorization was canceled before the shopper authenticated (sandbox: ${found.status})`,
        processorReference: reference,
      };
  }
}

function declinedCode(body: unknown): string | undefined {
  const parsed = lookupAnswerSchema.safeParse(body);
  return parsed.success && parsed.data.found ? parsed.data.code : undefined;
}

function parseAnswer<T>(status: number, body: unknown, schema: z.ZodType<T>, refusal: 'declined' | 'failed'): T {
  if (status === 401 || status === 403)
    throw new ProcessorTechnicalError('sandbox acquirer rejected the credentials', 'invalid_credentials');
  if (status === 409)
    throw new ProcessorTechnicalError('idempotency key reused with a different request', 'idempotency_conflict');
  if (status === 429) throw new ProcessorTechnicalError('sandbox acquirer rate limited the call', 'rate_limited');
  if (status >= 200 && status < 300) {
    const parsed = schema.safeParse(body);
    if (parsed.success) return parsed.data;
    throw new ProcessorTechnicalError('sandbox acquirer answered in an unknown shape', 'invalid_response');
  }
  // A business refusal the acquirer sent as 4xx with a code (e.g. 404 transaction_not_found).
  const failure = failureSchema.safeParse(body);
  const refused = failure.success ? schema.safeParse({ ...failure.data, status: refusal }) : undefined;
  if (refused?.success) return refused.data;
  throw new ProcessorTechnicalError(`sandbox acquirer answered HTTP ${status}`, 'invalid_request');
}
