import { postJson } from '../httpExecutor';
import { ProcessorTechnicalError, type FollowUpRequest, type ReversalRequest, type ReversalResult } from '../types';
import { adyenCapabilities } from './capabilities';
import type { AdapterDeps, ProcessorAdapter } from '../types';
import { checkoutBaseUrl, parseAdyenCredentials, type AdyenCredentials } from './credentials';
import { mayHoldMoney, readProbeAnswer, toLookupResult, type StoredUnderKey } from './lookup';
import { lookupProbeRequest, modificationRequest, paymentRequest, reversalRequest } from './requests';
import { toAuthorizeResult, toFollowUpResult, type AdyenAnswer } from './responses';

/**
 * Adyen Checkout API v71 over plain HTTP (docs/processors-adyen.md says why not the SDK). Builds
 * requests (requests.ts), sends them through the shared executor, maps answers (responses.ts).
 * `deps.sandboxUrl` is not used: the `endpoint` credential points the adapter at a simulator.
 */
const maxIdempotencyKeyLength = 64;

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
    try {
      const answer = await postJson({
        url: `${checkoutBaseUrl(credentials)}${path}`,
        headers: { 'x-api-key': credentials.apiKey, 'idempotency-key': idempotencyKey },
        body,
        timeoutMs: deps.timeoutMs,
      });
      return { status: answer.status, body: answer.body };
    } catch (error) {
      // Adyen does not promise that a 503 processed nothing: every 5xx leaves the outcome open.
      if (error instanceof ProcessorTechnicalError && error.code === 'processor_unavailable')
        throw new ProcessorTechnicalError(error.message, 'processor_error');
      throw error;
    }
  }

  const paymentPath = (pspReference: string, action: 'captures' | 'cancels' | 'refunds' | 'reversals') =>
    `/payments/${encodeURIComponent(pspReference)}/${action}`;

  async function modify(request: FollowUpRequest, action: 'captures' | 'cancels' | 'refunds') {
    const credentials = parseAdyenCredentials(request.credentials);
    const body = modificationRequest(request, credentials, action !== 'cancels');
    return toFollowUpResult(
      await send(credentials, paymentPath(request.processorReference, action), request.idempotencyKey, body),
    );
  }

  /** Resends the probe under the authorization's key: Adyen answers with what it stored for it. */
  async function storedUnder(idempotencyKey: string, credentials: AdyenCredentials): Promise<StoredUnderKey> {
    return readProbeAnswer(await send(credentials, '/payments', idempotencyKey, lookupProbeRequest(credentials)));
  }

  return {
    type: 'adyen',
    capabilities: adyenCapabilities,
    async authorize(request) {
      const credentials = parseAdyenCredentials(request.credentials);
      const body = paymentRequest(request, credentials);
      const answer = await send(credentials, '/payments', request.idempotencyKey, body);
      return toAuthorizeResult(answer, { capture: request.capture, amount: body.amount, reference: body.reference });
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
