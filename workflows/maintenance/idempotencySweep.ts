import { continueAsNew, proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { idempotencyPurge } from '../shared/activityOptions';

const { purgeExpiredIdempotencyRecords } = proxyActivities<Activities>(idempotencyPurge);

export const maintenanceWorkflowId = 'maintenance-sweeper';

/** Sweeps expired idempotency records every hour; restarts its history daily. */
export async function maintenanceWorkflow(sweepsDone = 0): Promise<void> {
  for (let hour = 0; hour < 24; hour++) {
    await sleep('1 hour');
    await purgeExpiredIdempotencyRecords();
  }
  await continueAsNew<typeof maintenanceWorkflow>(sweepsDone + 24);
}
