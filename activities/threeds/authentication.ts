import { ApplicationFailure } from '@temporalio/activity';
import { isDomainError } from '../../src/errors';
import { ProcessorTechnicalError } from '../../src/processors/types';
import { openProcessorCredentials } from '../../src/processors/credentials';
import { simulatorUrl } from '../../src/threeds/provider';
import { isThreeDsProviderType } from '../../src/processors/registry';
import { createAdyenAuthenticationOnlyProvider } from '../../src/threeds/providers/adyenAuthenticationOnly';
import { createSimulatorProvider } from '../../src/threeds/providers/simulator';
import type { ProviderResult, ThreeDsProvider } from '../../src/threeds/providers/types';
import { returnUrlOf } from '../../src/threeds/returnLink';
import { challengeTimeoutMs, statusForTransStatus } from '../../src/threeds/rules';
import {
  cardOfSession,
  providerProcessorOf,
  sessionAlreadyFinalCode,
  sessionById,
  transitionSession,
  valuesOf,
  type SessionTransition,
  type ThreeDsSessionRow,
} from '../../src/threeds/sessions';
import type {
  StartAuthenticationInput,
  ThreeDsCheck,
  ThreeDsDecision,
  ThreeDsFinal,
} from '../../src/threeds/workflowTypes';
import { decryptPan } from '../../src/vault/cardVault';
import type { ActivityDeps } from '../deps';
import { eventDispatchOf } from '../events/outbox';

export function finalOf(row: ThreeDsSessionRow): ThreeDsFinal {
  return {
    kind: 'final',
    sessionId: row.id,
    status: row.status === 'authenticated' ? 'authenticated' : 'failed',
    transStatus: row.transStatus,
    values: valuesOf(row),
    failureReason: row.failureReason,
  };
}

function valuesFrom(result: ProviderResult) {
  return {
    transStatus: result.transStatus ?? undefined,
    eci: result.eci,
    authenticationValue: result.authenticationValue,
    dsTransID: result.dsTransID,
    acsTransID: result.acsTransID,
    threeDSServerTransID: result.threeDSServerTransID,
    messageVersion: result.messageVersion,
    cardBrand: result.cardBrand,
  };
}

/** A final (non-C) answer of the 3DS server as the session's next state. */
function finalTransition(result: ProviderResult): SessionTransition {
  const status = result.transStatus && !result.failureReason ? statusForTransStatus(result.transStatus) : 'failed';
  return {
    ...valuesFrom(result),
    status,
    failureReason: status === 'failed' ? (result.failureReason ?? `transStatus ${result.transStatus}`) : null,
  };
}

/** Talking to the 3DS server and moving 3DS sessions; the only place the 3DS workflows touch the world. */
export function createThreeDsActivities(deps: ActivityDeps) {
  const { db } = deps;
  const simulator = createSimulatorProvider(simulatorUrl('test', deps.sandboxUrl)!);
  const dispatch = eventDispatchOf(deps);

  /**
   * The session's 3DS server: the provider its flow named (an adyen processor of the session's
   * account and mode), else the sandbox's simulator in test mode only (it must never authenticate
   * a live card). The API refuses a live authentication without a provider before it starts; a
   * session that gets here anyway fails instead of reaching the simulator, and so does one whose
   * provider is gone, disabled or unusable.
   */
  async function serverFor(row: ThreeDsSessionRow): Promise<ThreeDsProvider | null> {
    if (!row.providerProcessorId) return simulatorUrl(row.mode, deps.sandboxUrl) === null ? null : simulator;
    const processor = await providerProcessorOf(db, row, row.providerProcessorId);
    if (!processor?.enabled || !isThreeDsProviderType(processor.type)) return null;
    try {
      return createAdyenAuthenticationOnlyProvider({
        credentials: openProcessorCredentials(processor.encryptedCredentials, processor.id, deps.config),
        timeoutMs: deps.config.PROCESSOR_TIMEOUT_MS,
        endpointAllow: deps.config.PROCESSOR_ENDPOINT_ALLOW,
        sandboxUrl: deps.sandboxUrl,
      });
    } catch (error) {
      if (error instanceof ProcessorTechnicalError) return null;
      throw error;
    }
  }
  const noProvider: SessionTransition = { status: 'failed', failureReason: 'threeds_provider_required' };

  async function move(sessionId: string, change: SessionTransition): Promise<ThreeDsSessionRow> {
    try {
      return await transitionSession(db, sessionId, change, dispatch);
    } catch (error) {
      if (isDomainError(error, sessionAlreadyFinalCode)) {
        // Another path finished the session first (e.g. the timeout raced the return): keep its result.
        return sessionById(db, sessionId);
      }
      throw error;
    }
  }

  async function callServer<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ProcessorTechnicalError)
        throw ApplicationFailure.retryable(error.message, 'ThreeDsServerError', { code: error.code });
      throw error;
    }
  }

  /** Asks the 3DS server for the result of an open challenge and records it when final. */
  async function check(row: ThreeDsSessionRow): Promise<ThreeDsCheck> {
    if (row.status === 'authenticated' || row.status === 'failed') return finalOf(row);
    if (!row.providerProcessorId && !row.threeDSServerTransID)
      throw ApplicationFailure.nonRetryable(`3DS session ${row.id} has no open challenge`, 'ThreeDsStateError');
    const server = await serverFor(row);
    if (!server) return finalOf(await move(row.id, noProvider));
    const result = await callServer(() => server.result(row));
    if (!result || result.transStatus === 'C') return { kind: 'pending', sessionId: row.id };
    return finalOf(await move(row.id, finalTransition(result)));
  }

  return {
    /**
     * Sends the authentication request for a pending session (card decrypted in memory only) and
     * records the answer: final (authenticated / failed) or challenge_required with its page. A
     * retried call finds the session already moved, or the server's answer for the same reference.
     */
    async startThreeDsAuthentication(input: StartAuthenticationInput): Promise<ThreeDsDecision> {
      const session = await sessionById(db, input.sessionId);
      if (session.status === 'authenticated' || session.status === 'failed') return finalOf(session);
      if (session.status === 'challenge_required')
        return { kind: 'challenge', sessionId: session.id, challengeUrl: session.challengeUrl! };
      if (!session.paymentInstrumentId)
        throw ApplicationFailure.nonRetryable(
          `3DS session ${session.id} has no card to authenticate`,
          'ThreeDsStateError',
        );
      const server = await serverFor(session);
      if (!server) return finalOf(await move(session.id, noProvider));
      const instrument = await cardOfSession(db, session, session.paymentInstrumentId);
      if (!instrument)
        throw ApplicationFailure.nonRetryable(
          `payment instrument ${session.paymentInstrumentId} not found`,
          'ThreeDsStateError',
        );
      const recurring = session.recurringInfo as { frequency: number; expiry: string } | null;
      const result = await callServer(() =>
        server.authenticate({
          reference: session.id,
          cardNumber: decryptPan(instrument.encryptedPan, instrument.id, deps.config),
          expMonth: instrument.expMonth,
          expYear: instrument.expYear,
          cardholderName: instrument.cardholderName,
          amount: input.amount,
          currency: input.currency,
          messageVersion: '2.2.0',
          deviceChannel: input.deviceChannel,
          notificationUrl: returnUrlOf(deps.config, session.id, input.returnBaseUrl),
          ...(input.challengePreference ? { challengePreference: input.challengePreference } : {}),
          ...(session.authenticationType ? { authenticationType: session.authenticationType } : {}),
          ...(recurring ? { recurringInfo: recurring } : {}),
          ...(input.merchant ? { merchant: input.merchant } : {}),
          ...(input.cardholder ? { cardholder: input.cardholder } : {}),
        }),
      );
      if (result.transStatus !== 'C') return finalOf(await move(session.id, finalTransition(result)));
      // 3RI has no cardholder to send to a challenge: a server asking for one fails the session now
      // instead of leaving a renewal waiting out the challenge window.
      if (input.deviceChannel === '3ri')
        return finalOf(
          await move(session.id, {
            ...valuesFrom(result),
            status: 'failed',
            failureReason: 'challenge_not_possible_3ri',
          }),
        );
      if (!result.challengeUrl)
        throw ApplicationFailure.retryable(
          '3DS server asked for a challenge without a challenge URL',
          'ThreeDsServerError',
        );
      await move(session.id, {
        ...valuesFrom(result),
        status: 'challenge_required',
        challengeUrl: result.challengeUrl,
        expiresAt: new Date(Date.now() + challengeTimeoutMs),
        workflowId: input.workflowId,
      });
      return { kind: 'challenge', sessionId: session.id, challengeUrl: result.challengeUrl };
    },

    /** After the browser came back: the server's result (never the browser's word for it). */
    async checkThreeDsChallenge(input: { sessionId: string }): Promise<ThreeDsCheck> {
      return check(await sessionById(db, input.sessionId));
    },

    /** The challenge deadline passed: a last look at the server, then the session fails. */
    async expireThreeDsChallenge(input: { sessionId: string }): Promise<ThreeDsFinal> {
      const row = await sessionById(db, input.sessionId);
      const checked = await check(row);
      if (checked.kind === 'final') return checked;
      return finalOf(await move(row.id, { status: 'failed', failureReason: 'challenge_timeout' }));
    },
  };
}
