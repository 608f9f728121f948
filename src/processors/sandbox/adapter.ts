import { withEndpoint } from '../endpoint';
import { getJson, postJson } from '../httpExecutor';
import type {
  AdapterDeps,
  AuthenticationResultRequest,
  AuthorizeRequest,
  FollowUpRequest,
  LookupRequest,
  ProcessorAdapter,
  ProcessorCapabilities,
  ReversalRequest,
} from '../types';
import { parseCredentials, type SandboxCredentials } from './credentials';
import {
  authorizationPath,
  authorizeBody,
  bearer,
  followUpBody,
  lookupByKeyBody,
  requestHeaders,
  reversalBody,
} from './requests';
import {
  toAuthenticationResult,
  toAuthorizeResult,
  toFollowUpResult,
  toLookupResult,
  toReversalResult,
} from './responses';

export interface SandboxVariant {
  type: string;
  capabilities: ProcessorCapabilities;
  /** Whether external 3DS values are sent to the acquirer (false for a hosted-3DS processor). */
  forwardThreeDs: boolean;
}

/**
 * Transport to the sandbox acquirer; the variants differ only in capabilities and 3DS forwarding.
 * `capabilities.stepUp` also decides whether the caller's returnUrl is sent (the acquirer then
 * answers a 3DS card with its authentication page instead of requires_3ds).
 */
export function createSandboxAcquirerAdapter(deps: AdapterDeps, variant: SandboxVariant): ProcessorAdapter {
  const base = (credentials: SandboxCredentials) =>
    `${withEndpoint(deps.sandboxUrl, credentials.endpoint)}/acquirer/v1`;

  const followUp = async (request: FollowUpRequest, action: 'capture' | 'void' | 'refunds') => {
    const credentials = parseCredentials(request.credentials);
    const answer = await postJson({
      url: `${base(credentials)}/authorizations/${encodeURIComponent(request.processorReference)}/${action}`,
      headers: requestHeaders(request.idempotencyKey, credentials),
      body: followUpBody(request, credentials),
      timeoutMs: deps.timeoutMs,
    });
    return toFollowUpResult(answer.status, answer.body);
  };

  const byId = (credentials: SandboxCredentials, id: string) =>
    getJson({
      url: `${base(credentials)}${authorizationPath(id, credentials)}`,
      headers: bearer(credentials),
      timeoutMs: deps.timeoutMs,
    });

  return {
    type: variant.type,
    capabilities: variant.capabilities,
    async authorize(request: AuthorizeRequest) {
      const credentials = parseCredentials(request.credentials);
      const answer = await postJson({
        url: `${base(credentials)}/authorizations`,
        headers: requestHeaders(request.idempotencyKey, credentials),
        body: authorizeBody(request, credentials, {
          forwardThreeDs: variant.forwardThreeDs,
          stepUp: variant.capabilities.stepUp,
        }),
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
        body: reversalBody(request, credentials),
        timeoutMs: deps.timeoutMs,
      });
      return toReversalResult(answer.status, answer.body);
    },
    async lookup(request: LookupRequest) {
      const credentials = parseCredentials(request.credentials);
      const answer = request.processorReference
        ? await byId(credentials, request.processorReference)
        : await postJson({
            url: `${base(credentials)}/lookups`,
            headers: bearer(credentials),
            body: lookupByKeyBody(request.idempotencyKey, credentials),
            timeoutMs: deps.timeoutMs,
          });
      return toLookupResult(answer.status, answer.body);
    },
    // Only a step-up variant reads an authentication's result (the engine steps up only where this exists).
    ...(variant.capabilities.stepUp
      ? {
          async authenticationResult(request: AuthenticationResultRequest) {
            const credentials = parseCredentials(request.credentials);
            const answer = await byId(credentials, request.processorReference);
            return toAuthenticationResult(answer.status, answer.body);
          },
        }
      : {}),
  };
}
