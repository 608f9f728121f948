import { withEndpoint } from '../endpoint';
import { getJson, postJson } from '../httpExecutor';
import type {
  AdapterDeps,
  AuthorizeRequest,
  FollowUpRequest,
  LookupRequest,
  ProcessorAdapter,
  ProcessorCapabilities,
  ReversalRequest,
} from '../types';
import {
  authorizeBody,
  parseCredentials,
  requestHeaders,
  toAuthorizeResult,
  toFollowUpResult,
  toLookupResult,
  toReversalResult,
  type SandboxCredentials,
} from './transformers';

export interface SandboxVariant {
  type: string;
  capabilities: ProcessorCapabilities;
  /** Whether external 3DS values are sent to the acquirer (false for a hosted-3DS processor). */
  forwardThreeDs: boolean;
}

/** Transport to the sandbox acquirer; the variants differ only in capabilities and 3DS forwarding. */
export function createSandboxAcquirerAdapter(deps: AdapterDeps, variant: SandboxVariant): ProcessorAdapter {
  const base = (credentials: SandboxCredentials) =>
    `${withEndpoint(deps.sandboxUrl, credentials.endpoint)}/acquirer/v1`;

  const followUp = async (request: FollowUpRequest, action: 'capture' | 'void' | 'refunds') => {
    const credentials = parseCredentials(request.credentials);
    const answer = await postJson({
      url: `${base(credentials)}/authorizations/${encodeURIComponent(request.processorReference)}/${action}`,
      headers: requestHeaders(request.idempotencyKey, credentials),
      body: { merchantId: credentials.merchantId, amount: request.amount, currency: request.currency },
      timeoutMs: deps.timeoutMs,
    });
    return toFollowUpResult(answer.status, answer.body);
  };

  return {
    type: variant.type,
    capabilities: variant.capabilities,
    async authorize(request: AuthorizeRequest) {
      const credentials = parseCredentials(request.credentials);
      const answer = await postJson({
        url: `${base(credentials)}/authorizations`,
        headers: requestHeaders(request.idempotencyKey, credentials),
        body: authorizeBody(request, credentials, variant.forwardThreeDs),
        timeoutMs: deps.timeoutMs,
      });
      return toAuthorizeResult(answer.status, answer.body);
    },
    capture: (request) => followUp(request, 'capture'),
    void: (request) => followUp(request, 'void'),
    refund: (request) => followUp(request, 'refunds'),
    async reverseByIdempotencyKey(request: ReversalRequest) {
      const credentials = parseCredentials(request.credentials);
      const answer = await postJson({
        url: `${base(credentials)}/reversals`,
        headers: requestHeaders(request.idempotencyKey, credentials),
        body: {
          merchantId: credentials.merchantId,
          originalIdempotencyKey: request.originalIdempotencyKey,
          amount: request.amount,
          currency: request.currency,
        },
        timeoutMs: deps.timeoutMs,
      });
      return toReversalResult(answer.status, answer.body);
    },
    async lookup(request: LookupRequest) {
      const credentials = parseCredentials(request.credentials);
      const authorization: Record<string, string> = credentials.apiKey
        ? { authorization: `Bearer ${credentials.apiKey}` }
        : {};
      const merchant = new URLSearchParams({ merchantId: credentials.merchantId }).toString();
      const answer = request.processorReference
        ? await getJson({
            url: `${base(credentials)}/authorizations/${encodeURIComponent(request.processorReference)}?${merchant}`,
            headers: authorization,
            timeoutMs: deps.timeoutMs,
          })
        : await postJson({
            url: `${base(credentials)}/lookups`,
            headers: authorization,
            body: { merchantId: credentials.merchantId, idempotencyKey: request.idempotencyKey },
            timeoutMs: deps.timeoutMs,
          });
      return toLookupResult(answer.status, answer.body);
    },
  };
}
