// The Temporal floor the bench compares the engine with: bundled for a worker of its own (floor.ts).
// Deterministic workflow code, like workflows/: workflow APIs only.
import {
  allHandlersFinished,
  condition,
  defineUpdate,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';
import type { FloorActivities } from './floorActivities';

/** Answered the way pay-v2's `awaitOutcome` is: the handler waits for the run's outcome. */
export const floorOutcomeUpdate = defineUpdate<string, []>('floorOutcome');

// The same retry and timeout shapes as the payment workflow's steps.
const local = proxyLocalActivities<FloorActivities>({
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: '10 seconds',
  retry: { maximumAttempts: 20, initialInterval: '200 milliseconds', maximumInterval: '5 seconds' },
});
const remote = proxyActivities<FloorActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 4, initialInterval: '300 milliseconds', backoffCoefficient: 2 },
});

async function answered(steps: () => Promise<void>): Promise<string> {
  const run: { outcome?: string } = {};
  setHandler(floorOutcomeUpdate, async () => {
    await condition(() => run.outcome !== undefined);
    return run.outcome!;
  });
  await steps();
  run.outcome = 'succeeded';
  await condition(allHandlersFinished);
  return run.outcome;
}

/** Update-with-start answered at once: no activity. */
export async function emptyFloorWorkflow(): Promise<string> {
  return answered(async () => undefined);
}

/** A payment's shape with no work: prepare, block rules (local), authorize (activity), finalize (local). */
export async function paymentShapedFloorWorkflow(): Promise<string> {
  return answered(async () => {
    await local.floorStep();
    await local.floorStep();
    await remote.floorStep();
    await local.floorStep();
  });
}

/** The same four steps, all local activities. */
export async function allLocalFloorWorkflow(): Promise<string> {
  return answered(async () => {
    for (let i = 0; i < 4; i++) await local.floorStep();
  });
}
