import { defineUpdate } from '@temporalio/workflow';
import type { ThreeDsCheck, ThreeDsDecision } from '../../src/threeds/workflowTypes';

/**
 * Sent by the challenge return endpoint when the cardholder's browser comes back from the ACS:
 * the workflow asks the 3DS server for the result and answers with it (final, or still pending
 * if the server has none yet). Registered by any workflow that runs `authenticateDurably`.
 */
export const threeDsChallengeReturnedUpdate = defineUpdate<ThreeDsCheck>('threeDsChallengeReturned');

/** Sent with update-with-start by POST /threeds/authenticate: answers at the first decision (final or challenge), or null at waitMs. */
export const awaitThreeDsDecisionUpdate = defineUpdate<ThreeDsDecision | null, [{ waitMs: number }]>(
  'awaitThreeDsDecision',
);
