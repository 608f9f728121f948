import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import type { Duration, SearchAttributePair, UpdateDefinition, WorkflowIdReusePolicy } from '@temporalio/common';

export { searchAttributesFor } from './searchAttributes';

/** The run to start, or to join when one is running under its id (conflict policy USE_EXISTING). */
export interface WorkflowStart {
  /** The workflow type, as the worker registers it. */
  type: string;
  workflowId: string;
  taskQueue: string;
  args: unknown[];
  searchAttributes: SearchAttributePair[];
  /** REJECT_DUPLICATE: a closed run's id is never started again; its answer is its result or `whenClosed`. */
  workflowIdReusePolicy?: WorkflowIdReusePolicy;
  /** How long a worker may hold one workflow task before the server hands it to another (default 10 s). */
  workflowTaskTimeout?: Duration;
}

/** What the caller waits for: an update's answer (sent with update-with-start), or the run's result. */
export type AwaitedAnswer<Ret, Args extends unknown[]> =
  { update: UpdateDefinition<Ret, Args>; args: Args } | { result: true };

export interface StartAndAwait<Ret, Late, Args extends unknown[]> {
  start: WorkflowStart;
  answer: AwaitedAnswer<Ret, Args>;
  /** How long the caller waits for the answer, and what it answers when that time passes first. */
  deadlineMs: number;
  onDeadline: () => Late;
  /** Update only: the answer of a run under this id that closed already (its update cannot run any more). */
  whenClosed?: () => Promise<Ret>;
}

/**
 * The one place the API starts (or joins) a workflow and waits for its answer with a deadline.
 * The update's own wait inside the workflow normally answers first; this deadline covers a worker
 * that never picks the work up. A result-awaiting call whose run closed already (REJECT_DUPLICATE)
 * waits for that run's result.
 */
export async function startAndAwait<Ret, Late, Args extends unknown[] = []>(
  client: Client,
  options: StartAndAwait<Ret, Late, Args>,
): Promise<Ret | Late> {
  const { start, answer } = options;
  const startOptions = {
    workflowId: start.workflowId,
    taskQueue: start.taskQueue,
    args: start.args,
    workflowIdConflictPolicy: 'USE_EXISTING' as const,
    ...(start.workflowIdReusePolicy ? { workflowIdReusePolicy: start.workflowIdReusePolicy } : {}),
    ...(start.workflowTaskTimeout ? { workflowTaskTimeout: start.workflowTaskTimeout } : {}),
    typedSearchAttributes: start.searchAttributes,
  };
  if ('update' in answer) {
    const update = client.workflow.executeUpdateWithStart(answer.update, {
      args: answer.args,
      startWorkflowOperation: new WithStartWorkflowOperation(start.type, startOptions),
    });
    try {
      return await withDeadline(update, options.deadlineMs, options.onDeadline);
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError && options.whenClosed) return options.whenClosed();
      throw error;
    }
  }
  let handle: WorkflowHandle;
  try {
    handle = await client.workflow.start(start.type, startOptions);
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    handle = client.workflow.getHandle(start.workflowId);
  }
  return withDeadline(handle.result() as Promise<Ret>, options.deadlineMs, options.onDeadline);
}

const deadlinePassed = Symbol('deadline passed');

/** `answer`, or `onDeadline()` when `ms` pass first (a late failure of `answer` is then ignored). */
async function withDeadline<Ret, Late>(answer: Promise<Ret>, ms: number, onDeadline: () => Late): Promise<Ret | Late> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof deadlinePassed>((resolve) => {
    timer = setTimeout(() => resolve(deadlinePassed), ms);
  });
  try {
    const first = await Promise.race([answer, deadline]);
    if (first !== deadlinePassed) return first;
    answer.catch(() => undefined);
    return onDeadline();
  } finally {
    clearTimeout(timer);
  }
}
