import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { memoryLimitDefaults } from '../config';
import { recordedEventShapeViolations } from '../events/recordEvent';
import { PendingWork } from '../events/pendingWork';
import { createMailer } from '../portal/mailer';
import type { ActivityDeps } from '../../activities/deps';
import { createWorkerConnection, type TemporalSettings } from '../../temporal/connection';
import { searchAttributes } from '../../temporal/searchAttributes';
import { createWorker } from '../../temporal/worker';
import { checkoutExpiryWorkflowId } from '../../workflows/commerce/checkoutExpiry';
import { eventOutboxWorkflowId } from '../../workflows/events/outbox';
import { domainRecheckWorkflowId } from '../../workflows/domains/recheck';
import { maintenanceWorkflowId } from '../../workflows/maintenance/idempotencySweep';

export interface RunningWorker {
  worker: Worker;
  stop(): Promise<void>;
}

/** Starts a worker polling the task queue with every workflow and activity. */
export async function startWorker(
  settings: TemporalSettings,
  taskQueue: string,
  deps: ActivityDeps,
  options: { workflowCodePath?: string } = {},
): Promise<RunningWorker> {
  recordedEventShapeViolations.setLimit(
    deps.config.RECORDED_VIOLATIONS_MAX ?? memoryLimitDefaults.RECORDED_VIOLATIONS_MAX,
  );
  const connection = await createWorkerConnection(settings);
  const mailer = deps.mailer ?? createMailer(deps);
  const pendingWork = deps.pendingWork ?? new PendingWork();
  const worker = await createWorker({
    connection,
    namespace: settings.namespace,
    taskQueue,
    activities: createActivities({ ...deps, mailer, pendingWork }),
    maxCachedWorkflows: deps.config.TEMPORAL_MAX_CACHED_WORKFLOWS ?? memoryLimitDefaults.TEMPORAL_MAX_CACHED_WORKFLOWS,
    workflowCodePath: options.workflowCodePath,
  });
  const running = worker.run();
  return {
    worker,
    stop: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await pendingWork.settled();
      if (!deps.mailer) mailer.close();
      await connection.close();
    },
  };
}

/** `AccountId` of the engine's own runs (no merchant's): every run carries one, so `AccountId IS NULL` finds none. */
export const systemAccountId = 'system';

/** Starts the singleton maintenance workflows (idempotency sweep, event outbox, checkout expiry, domain recheck) unless they run. */
export async function ensureMaintenanceWorkflow(client: Client, taskQueue: string): Promise<void> {
  const singletons = [
    { type: 'maintenanceWorkflow', workflowId: maintenanceWorkflowId, args: [0] },
    { type: 'eventOutboxWorkflow', workflowId: eventOutboxWorkflowId, args: [] },
    { type: 'checkoutExpiryWorkflow', workflowId: checkoutExpiryWorkflowId, args: [] },
    { type: 'domainRecheckWorkflow', workflowId: domainRecheckWorkflowId, args: [] },
  ];
  for (const { type, workflowId, args } of singletons) {
    try {
      await client.workflow.start(type, {
        workflowId,
        taskQueue,
        args,
        typedSearchAttributes: [{ key: searchAttributes.AccountId, value: systemAccountId }],
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
}
