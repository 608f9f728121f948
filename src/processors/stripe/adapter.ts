import type Stripe from 'stripe';
import { declineCategoryOf } from '../declineCodes';
import {
  ProcessorTechnicalError,
  type AdapterDeps,
  type AuthenticationResult,
  type AuthenticationResultRequest,
  type AuthorizeRequest,
  type AuthorizeResult,
  type FollowUpRequest,
  type FollowUpResult,
  type LookupRequest,
  type LookupResult,
  type ProcessorAdapter,
  type ProcessorCapabilities,
  type ReversalRequest,
  type ReversalResult,
} from '../types';
import { isIdempotencyError, refusalOf, stripeClient } from './client';
import { followUpRefusalCode } from './codes';
import { parseStripeCredentials } from './credentials';
import {
  fenceParams,
  fromStripeAmount,
  paymentIntentParams,
  refundParams,
  searchQueryFor,
  toStripeAmount,
  unusableThreeDs,
} from './requests';
import { authenticationResultOf, authorizeResultOf, declined, followUpFailure, lookupResultOf } from './responses';

/**
 * PaymentIntents with `confirm: true` (capture_method manual for an auth), capture, cancel,
 * refunds; every POST carries the engine's Idempotency-Key. The PaymentIntent carries the
 * attempt's key in its metadata, so `lookup` and reversals find it by search.
 */
export function createStripeAdapter(deps: AdapterDeps, capabilities: ProcessorCapabilities): ProcessorAdapter {
  const clientFor = (credentials: Record<string, string>) =>
    stripeClient(parseStripeCredentials(credentials), deps.timeoutMs);

  /** The PaymentIntent an authorization created under `idempotencyKey`, with its latest charge. */
  async function findIntent(stripe: Stripe, idempotencyKey: string, reference?: string) {
    if (reference) {
      try {
        return await stripe.paymentIntents.retrieve(reference, { expand: ['latest_charge'] });
      } catch (error) {
        if (refusalOf(error).vendorCode === 'resource_missing') return undefined;
        throw new ProcessorTechnicalError(`stripe refused a lookup: ${(error as Error).message}`, 'invalid_request');
      }
    }
    const found = await stripe.paymentIntents
      .search({ query: searchQueryFor(idempotencyKey), expand: ['data.latest_charge'] })
      .catch((error: unknown) => {
        refusalOf(error);
        throw new ProcessorTechnicalError(`stripe refused a search: ${(error as Error).message}`, 'invalid_request');
      });
    return found.data[0];
  }

  /**
   * No PaymentIntent is found under the key. Before that counts, the key is claimed with a harmless
   * request (a Customer) under it: Stripe's idempotency layer then refuses an authorization still
   * in flight or arriving later under that key, so "not found" stays true. If the key is taken
   * (409 in progress, 400 used for the authorization), the PaymentIntent exists or is on its way,
   * merely not visible to search yet: a technical error, so the caller asks again later.
   */
  async function fence(stripe: Stripe, idempotencyKey: string): Promise<void> {
    try {
      await stripe.customers.create(fenceParams(idempotencyKey), { idempotencyKey });
    } catch (error) {
      if (isIdempotencyError(error))
        throw new ProcessorTechnicalError(
          'stripe: the authorization key is taken, its PaymentIntent is not visible yet',
          'idempotency_conflict',
        );
      refusalOf(error);
      throw new ProcessorTechnicalError(`stripe refused the fence: ${(error as Error).message}`, 'invalid_request');
    }
  }

  async function followUp(
    request: FollowUpRequest,
    operation: 'capture' | 'void' | 'refund',
    send: (stripe: Stripe, options: Stripe.RequestOptions) => Promise<FollowUpResult>,
  ): Promise<FollowUpResult> {
    try {
      return await send(clientFor(request.credentials), { idempotencyKey: request.idempotencyKey });
    } catch (error) {
      const refusal = refusalOf(error);
      const code = followUpRefusalCode(operation, refusal.vendorCode, refusal.intent?.status);
      return followUpFailure(code, `${refusal.message} (stripe: ${refusal.vendorCode})`);
    }
  }

  return {
    type: 'stripe',
    capabilities,

    async authorize(request: AuthorizeRequest): Promise<AuthorizeResult> {
      if (unusableThreeDs(request))
        return {
          outcome: 'declined',
          code: 'invalid_authentication_data',
          category: declineCategoryOf('invalid_authentication_data'),
          message: 'Imported 3DS results need the DS transaction id (Stripe: three_d_secure.transaction_id)',
        };
      const stripe = clientFor(request.credentials);
      try {
        const intent = await stripe.paymentIntents.create(paymentIntentParams(request), {
          idempotencyKey: request.idempotencyKey,
        });
        const result = authorizeResultOf(intent);
        if (!result)
          throw new ProcessorTechnicalError(`stripe left the PaymentIntent ${intent.status}`, 'processor_error');
        return result;
      } catch (error) {
        if (error instanceof ProcessorTechnicalError) throw error;
        const refusal = refusalOf(error);
        if (refusal.vendorCode === 'resource_missing')
          throw new ProcessorTechnicalError(`stripe: ${refusal.message}`, 'invalid_request');
        return declined(refusal.vendorCode, refusal.message, refusal.intent?.id);
      }
    },

    capture: (request) =>
      followUp(request, 'capture', async (stripe, options) => {
        const intent = await stripe.paymentIntents.capture(
          request.processorReference,
          { amount_to_capture: toStripeAmount(request.amount, request.currency) },
          options,
        );
        if (intent.status === 'succeeded') return { outcome: 'succeeded', processorReference: intent.id };
        return { outcome: 'pending', processorReference: intent.id };
      }),

    void: (request) =>
      followUp(request, 'void', async (stripe, options) => {
        const intent = await stripe.paymentIntents.cancel(request.processorReference, {}, options);
        return { outcome: 'succeeded', processorReference: intent.id };
      }),

    refund: (request) =>
      followUp(request, 'refund', async (stripe, options) => {
        if (request.amount <= 0) return followUpFailure('invalid_amount', 'A refund must be positive');
        const refund = await stripe.refunds.create(refundParams(request), options);
        if (refund.status === 'succeeded') return { outcome: 'succeeded', processorReference: refund.id };
        if (refund.status === 'pending' || refund.status === 'requires_action')
          return { outcome: 'pending', processorReference: refund.id };
        return followUpFailure('processing_error', `Stripe answered the refund ${refund.status ?? 'without a status'}`);
      }),

    async reverseByIdempotencyKey(request: ReversalRequest): Promise<ReversalResult> {
      const stripe = clientFor(request.credentials);
      const intent = await findIntent(stripe, request.originalIdempotencyKey);
      if (!intent) {
        await fence(stripe, request.originalIdempotencyKey);
        return { outcome: 'nothing_to_reverse' };
      }
      const options = { idempotencyKey: request.idempotencyKey };
      const reversed = (amount: number): ReversalResult => ({
        outcome: 'reversed',
        processorReference: intent.id,
        amount: fromStripeAmount(amount, intent.currency),
      });
      try {
        switch (intent.status) {
          case 'succeeded': {
            // No amount: the same reversal key always sends the same request, so a retry replays it.
            const refund = await stripe.refunds.create({ payment_intent: intent.id }, options);
            if (refund.status === 'succeeded') return reversed(refund.amount);
            // Until Stripe confirms the refund the charge may stand: the engine must not move on.
            return {
              outcome: 'failed',
              code: 'processor_outcome_unknown',
              category: 'technical',
              message: `stripe answered the reversal refund ${refund.status ?? 'without a status'}`,
            };
          }
          case 'requires_capture':
          case 'canceled':
            // Canceled already: under this reversal key Stripe replays the first answer; under
            // another key it refuses the state, and nothing is left to undo.
            return reversed((await stripe.paymentIntents.cancel(intent.id, {}, options)).amount);
          case 'requires_action':
          case 'requires_confirmation':
            // Never charged; canceled so that it never will.
            await stripe.paymentIntents.cancel(intent.id, {}, options);
            return { outcome: 'nothing_to_reverse' };
          case 'requires_payment_method':
            return { outcome: 'nothing_to_reverse' };
          default:
            throw new ProcessorTechnicalError(
              `stripe PaymentIntent ${intent.id} is ${intent.status}`,
              'processor_error',
            );
        }
      } catch (error) {
        if (error instanceof ProcessorTechnicalError) throw error;
        const refusal = refusalOf(error);
        // Undone already (by an earlier reversal under another key): nothing is left.
        if (['charge_already_refunded', 'payment_intent_unexpected_state'].includes(refusal.vendorCode))
          return reversed(0);
        const code = followUpRefusalCode('refund', refusal.vendorCode, refusal.intent?.status);
        return { outcome: 'failed', code, category: declineCategoryOf(code), message: refusal.message };
      }
    },

    /** The PaymentIntent that asked for authentication, read back once the shopper is back (or the wait ran out). */
    async authenticationResult(request: AuthenticationResultRequest): Promise<AuthenticationResult> {
      const stripe = clientFor(request.credentials);
      const intent = await findIntent(stripe, request.idempotencyKey, request.processorReference);
      if (!intent)
        throw new ProcessorTechnicalError(
          `stripe: the PaymentIntent ${request.processorReference} is not found`,
          'invalid_request',
        );
      return authenticationResultOf(intent);
    },

    async lookup(request: LookupRequest): Promise<LookupResult> {
      const stripe = clientFor(request.credentials);
      const intent = await findIntent(stripe, request.idempotencyKey, request.processorReference);
      if (!intent) {
        if (!request.processorReference) await fence(stripe, request.idempotencyKey);
        return { outcome: 'not_found' };
      }
      const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
      return lookupResultOf(intent, charge);
    },
  };
}
