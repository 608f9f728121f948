import { allHandlersFinished, condition } from '@temporalio/workflow';
import type { FunnelSessionInput, FunnelSessionView } from '../../src/funnels/sessionTypes';
import {
  answerOfferUpdate,
  checkoutPaidUpdate,
  funnelSessionQuery,
  sessionOpenedUpdate,
  trackStepUpdate,
} from './messages';
import { registerSessionHandlers } from './sessionHandlers';
import { FunnelSessionRun } from './sessionRun';

export { answerOfferUpdate, checkoutPaidUpdate, funnelSessionQuery, sessionOpenedUpdate, trackStepUpdate };

/**
 * A customer's way through a funnel (workflow id = session id `fs_…`): holds the customer, the paid
 * checkout (card, processor, flow) and the current step; moves on tracking events, the checkout's
 * payment and offer answers (updates with validators); ends at a thankyou step or after
 * `idleTimeoutMs` without any of them (a durable timer, reset by each). The row in funnel_sessions
 * is its projection, written by this loop only, one write at a time.
 */
export async function funnelSessionWorkflow(input: FunnelSessionInput): Promise<FunnelSessionView> {
  const run = new FunnelSessionRun(input);
  const { state } = run;
  registerSessionHandlers(run);

  await run.save();
  while (state.status === 'active') {
    const seen = run.touches;
    const moved = await condition(() => run.touches !== seen || state.status !== 'active', input.idleTimeoutMs);
    // Idle: nothing happened for the whole timeout and no answer is being charged.
    if (!moved && run.busy === 0) state.status = 'expired';
    if (run.saved !== run.touches || state.status !== 'active') await run.save();
  }
  await condition(allHandlersFinished);
  if (run.saved !== run.touches) await run.save();
  return run.view();
}
