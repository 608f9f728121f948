import { declineCategoryOf, type DeclineCode } from '../declineCodes';
import { postJson, type AnswerHeaders } from '../httpExecutor';
import { ProcessorTechnicalError, type FollowUpRequest, type ReversalRequest, type ReversalResult } from '../types';
import type {
  AdapterDeps,
  AuthenticationResult,
  AuthenticationResultRequest,
  AuthorizeRequest,
  AuthorizeResult,
  FollowUpResult,
  ProcessorAdapter,
} from '../types';
import { adyenCapabilities } from './capabilities';
import { checkoutBaseUrl, parseAdyenCredentials, type AdyenCredentials } from './credentials';
import { afterFence, isKeyFence, mayHoldMoney, readKeyAnswer, toLookupResult, type StoredUnderKey } from './lookup';
import {
  detailsRequest,
  keyFenceRequest,
  lookupProbeRequest,
  modificationRequest,
  paymentRequest,
  reversalRequest,
} from './requests';
import { toAuthorizeResult, toFollowUpResult, type AdyenAnswer } from './responses';
import { detailsIdempotencyKey, toDetailsResult } from './stepUp';

/**
 * Adyen Checkout API v71 over plain HTTP (docs/processors-adyen.md says why not the SDK). Builds
 * requests (requests.ts), sends them through the shared executor, maps answers (responses.ts).
 * `deps.sandboxUrl` is not used: the `endpoint` credential points the adapter at a simulator.
 */
const maxIdempotencyKeyLength = 64;

/**
 * Adyen marks an error after which nothing was processed (the key stays unused) with
 * `Transient-Error: true` (CheckoutService-v71, `RequestedTestErrorResponseCode`); any other 5xx
 * may come after the message reached the card network, so its outcome is unknown.
 */
function serverErrorCode(status: number, headers: AnswerHeaders): DeclineCode {
  if (headers['transient-error']?.toLowerCase() === 'true') return 'processor_unavailable';
  return status === 504 ? 'timeout' : 'processor_error';
}

export function createAdyenAdapter(deps: AdapterDeps): ProcessorAdapter {
  async function send(
    credentials: AdyenCredentials,
    path: string,
    idempotencyKey: string,
    body: unknown,
  ): Promise<AdyenAnswer> {
    if (idempotencyKey.length > maxIdempotencyKeyLength)
      throw new ProcessorTechnicalError(
        `idempotency key longer than Adyen's ${maxIdempotencyKeyLength}`,
        'invalid_request',
      );
    const answer = await postJson({
      url: `${checkoutBaseUrl(credentials)}${path}`,
      headers: { 'x-api-key': credentials.apiKey, 'idempotency-key': idempotencyKey },
      body,
      timeoutMs: deps.timeoutMs,
      classifyServerError: serverErrorCode,
    });
    return { status: answer.status, body: answer.body };
  }

  const paymentPath = (pspReference: string, action: 'captures' | 'cancels' | 'refunds' | 'reversals') =>
    `/payments/${encodeURIComponent(pspReference)}/${action}`;

  async function modify(request: FollowUpRequest, action: 'captures' | 'cancels' | 'refunds'): Promise<FollowUpResult> {
    const withAmount = action !== 'cancels';
    if (withAmount && request.amount <= 0) return refusedAsData('invalid_amount', 'the amount must be positive');
    const credentials = parseAdyenCredentials(request.credentials);
    const body = modificationRequest(request, credentials, withAmount);
    return toFollowUpResult(
      await send(credentials, paymentPath(request.processorReference, action), request.idempotencyKey, body),
    );
  }

  /**
   * Adyen has no read of a payment by reference or key. The probe, resent under the key, gets the
   * stored answer of a request Adyen processed; when the key is unused, the fence closes it so a
   * late original cannot charge (docs/processors-adyen.md "Lookup").
   */
  async function storedUnder(idempotencyKey: string, credentials: AdyenCredentials): Promise<StoredUnderKey> {
    const probe = readKeyAnswer(await send(credentials, '/payments', idempotencyKey, lookupProbeRequest(credentials)));
    if (probe.kind === 'payment') return { found: true, payment: probe.payment };
    if (probe.kind === 'fenced') return { found: false };
    const fence = readKeyAnswer(
      await send(credentials, '/paymentMethods', idempotencyKey, keyFenceRequest(credentials)),
    );
    return afterFence(fence, probe.errorCode);
  }

  return {
    type: 'adyen',
    capabilities: adyenCapabilities,
    async authorize(request) {
      if (withoutDsTransId(request))
        return declinedAsData(
          'invalid_authentication_data',
          'External 3-D Secure 2 values need the DS transaction id (Adyen: mpiData.dsTransID)',
        );
      const credentials = parseAdyenCredentials(request.credentials);
      const body = paymentRequest(request, credentials);
      const answer = await send(credentials, '/payments', request.idempotencyKey, body);
      if (answer.status >= 200 && answer.status < 300 && isKeyFence(answer.body))
        throw new ProcessorTechnicalError(
          'a lookup closed this key before the authorization arrived; Adyen processed nothing under it',
          'idempotency_conflict',
        );
      return toAuthorizeResult(answer, {
        capture: request.capture,
        amount: body.amount,
        reference: body.reference,
        stepUp: body.channel === 'Web',
      });
    },
    /**
     * Only the shopper's return data lets Adyen decide (POST /payments/details); Adyen has no read of
     * a payment, and the key's stored answer stays the first one (the redirect), so without it the
     * result is `pending` and the wait's timeout cancels.
     */
    async authenticationResult(request: AuthenticationResultRequest): Promise<AuthenticationResult> {
      const details = detailsRequest(request.returnData);
      if (!details) return { outcome: 'pending' };
      if (request.capture === undefined)
        throw new ProcessorTechnicalError('adyen step-up: the capture mode is not given', 'invalid_request');
      const credentials = parseAdyenCredentials(request.credentials);
      const key = detailsIdempotencyKey(request.idempotencyKey, details);
      return toDetailsResult(await send(credentials, '/payments/details', key, details), {
        processorReference: request.processorReference,
        capture: request.capture,
      });
    },
    capture: (request) => modify(request, 'captures'),
    void: (request) => modify(request, 'cancels'),
    refund: (request) => modify(request, 'refunds'),
    async lookup(request) {
      const credentials = parseAdyenCredentials(request.credentials);
      return toLookupResult(await storedUnder(request.idempotencyKey, credentials), request.processorReference);
    },
    /**
     * Finds the payment by the authorization's key, then reverses it: /reversals cancels an
     * uncaptured payment and refunds a captured one, so the capture state need not be known.
     * Accepted ("received") counts as reversed; a CANCEL_OR_REFUND webhook confirms it.
     */
    async reverseByIdempotencyKey(request: ReversalRequest): Promise<ReversalResult> {
      const credentials = parseAdyenCredentials(request.credentials);
      const stored = await storedUnder(request.originalIdempotencyKey, credentials);
      if (!stored.found || !mayHoldMoney(stored.payment)) return { outcome: 'nothing_to_reverse' };
      const pspReference = stored.payment.pspReference;
      if (!pspReference)
        throw new ProcessorTechnicalError('adyen stored a payment without a pspReference', 'invalid_response');
      const body = reversalRequest(request.idempotencyKey, credentials);
      const result = toFollowUpResult(
        await send(credentials, paymentPath(pspReference, 'reversals'), request.idempotencyKey, body),
      );
      switch (result.outcome) {
        case 'pending':
        case 'succeeded':
          return {
            outcome: 'reversed',
            processorReference: pspReference,
            amount: stored.payment.amount?.value ?? request.amount,
          };
        case 'failed':
          return result;
      }
    },
  };
}

/** Adyen's "authorised elsewhere" flow needs dsTransID for 3-D Secure 2 on every scheme. */
function withoutDsTransId(request: AuthorizeRequest): boolean {
  return request.threeDs !== undefined && request.threeDs.messageVersion.startsWith('2') && !request.threeDs.dsTransID;
}

function declinedAsData(code: DeclineCode, message: string): AuthorizeResult {
  return { outcome: 'declined', code, category: declineCategoryOf(code), message };
}

function refusedAsData(code: DeclineCode, message: string): FollowUpResult {
  return { outcome: 'failed', code, category: declineCategoryOf(code), message };
}
