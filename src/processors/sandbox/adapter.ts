import { postJson } from '../httpExecutor';
import type {
  AuthorizeRequest,
  FollowUpRequest,
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
  toReversalResult,
} from './transformers';

export interface AdapterDeps {
  sandboxUrl: string;
  timeoutMs: number;
}

export interface SandboxVariant {
  type: string;
  capabilities: ProcessorCapabilities;
  /** Whether external 3DS values are sent to the acquirer (false for a hosted-3DS processor). */
  forwardThreeDs: boolean;
}

/** Transport to the sandbox acquirer; the variants differ only in capabilities and 3DS forwarding. */
export function createSandboxAcquirerAdapter(deps: AdapterDeps, variant: SandboxVariant): ProcessorAdapter {
  const base = `${deps.sandboxUrl.replace(/\/+$/, '')}/acquirer/v1`;

  const followUp = async (request: FollowUpRequest, action: 'capture' | 'void' | 'refunds') => {
    const credentials = parseCredentials(request.credentials);
    const answer = await postJson({
      url: `${base}/authorizations/${encodeURIComponent(request.processorReference)}/${action}`,
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
        url: `${base}/authorizations`,
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
        url: `${base}/reversals`,
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
  };
}
