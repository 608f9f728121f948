import {
  allHandlersFinished,
  CancellationScope,
  condition,
  isCancellation,
  proxyActivities,
  setHandler,
  sleep,
} from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { threeDsStep } from '../shared/activityOptions';
import { awaitThreeDsDecisionUpdate, threeDsChallengeReturnedUpdate } from './messages';
import { challengeTimeoutMs } from '../../src/threeds/rules';
import type {
  StartAuthenticationInput,
  ThreeDsAuthenticationInput,
  ThreeDsChallenge,
  ThreeDsCheck,
  ThreeDsDecision,
  ThreeDsFinal,
} from '../../src/threeds/workflowTypes';

const { startThreeDsAuthentication, checkThreeDsChallenge, expireThreeDsChallenge } =
  proxyActivities<Activities>(threeDsStep);

/**
 * One 3DS authentication as a durable step: ask the 3DS server; on a challenge hand the page out
 * (`onChallenge`) and wait, for at most 15 minutes of workflow time, for the browser to come back;
 * then record the server's result. A challenge never finished fails the session when time runs out.
 */
export async function authenticateDurably(
  input: StartAuthenticationInput,
  onChallenge: (challenge: ThreeDsChallenge) => void,
): Promise<ThreeDsFinal> {
  let returns = 0;
  let checked = 0;
  let lastCheck: ThreeDsCheck | undefined;
  let final: ThreeDsFinal | undefined;
  setHandler(threeDsChallengeReturnedUpdate, async () => {
    const mine = ++returns;
    await condition(() => final !== undefined || checked >= mine);
    return final ?? lastCheck ?? { kind: 'pending' as const, sessionId: input.sessionId };
  });

  const decision = await startThreeDsAuthentication(input);
  if (decision.kind === 'final') {
    final = decision;
    return final;
  }
  onChallenge(decision);
  // One durable timer for the whole challenge: browser returns that find no result yet keep waiting on it.
  let timedOut = false;
  const timerScope = new CancellationScope();
  void timerScope
    .run(() => sleep(challengeTimeoutMs))
    .then(() => {
      timedOut = true;
    })
    .catch((error: unknown) => {
      if (!isCancellation(error)) throw error;
    });
  while (final === undefined) {
    await condition(() => returns > checked || timedOut);
    if (returns <= checked) {
      final = await expireThreeDsChallenge({ sessionId: input.sessionId });
      break;
    }
    const answering = returns;
    const result = await checkThreeDsChallenge({ sessionId: input.sessionId });
    lastCheck = result;
    checked = answering;
    if (result.kind === 'final') final = result;
  }
  timerScope.cancel();
  return final;
}

/** POST /threeds/authenticate and create-merchant-session (workflow id = session id). */
export async function threeDsAuthenticationWorkflow(input: ThreeDsAuthenticationInput): Promise<ThreeDsFinal> {
  let decision: ThreeDsDecision | undefined;
  setHandler(awaitThreeDsDecisionUpdate, async ({ waitMs }) => {
    await condition(() => decision !== undefined, Math.max(0, waitMs));
    return decision ?? null;
  });
  const final = await authenticateDurably(input, (challenge) => {
    decision = challenge;
  });
  decision ??= final;
  await condition(allHandlersFinished);
  return final;
}
