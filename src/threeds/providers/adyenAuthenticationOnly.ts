import { z } from 'zod';
import { checkoutBaseUrl, parseAdyenCredentials } from '../../processors/adyen/credentials';
import { isEndpointAllowed, parseEndpointAllow } from '../../processors/endpoint';
import { postJson, type JsonAnswer } from '../../processors/httpExecutor';
import { ProcessorTechnicalError } from '../../processors/types';
import type { OpenChallenge, ProviderAuthenticationRequest, ProviderResult, ThreeDsProvider } from './types';

/**
 * Adyen as a standalone 3-D Secure 2 provider: Checkout v71 `POST /payments` with
 * `authenticationData.authenticationOnly: true` authenticates the card and authorises nothing.
 * - `AuthenticationFinished`: the result is `threeDS2Result` (eci, authenticationValue, transStatus,
 *   dsTransID, messageVersion, threeDSServerTransID), recorded and forwarded as is.
 * - `RedirectShopper` (a challenge; the request does not ask for the native SDK flow): the
 *   cardholder's browser goes to `action.url` and comes back to `returnUrl`, the engine's signed
 *   return link, with `redirectResult`; `POST /payments/details` with it (and
 *   `threeDSAuthenticationOnly: true`) answers the `threeDS2Result`.
 * - anything else (`AuthenticationNotRequired`, `Refused`, a native `ChallengeShopper`, a POST
 *   redirect, a request Adyen refuses as invalid): a failed authentication with a named reason;
 *   only technical failures (network, 5xx) are retried.
 */
export interface AdyenProviderOptions {
  credentials: Record<string, string>;
  timeoutMs: number;
  /** PROCESSOR_ENDPOINT_ALLOW: a stored `endpoint` outside it sends nothing. */
  endpointAllow: string;
  /** The engine's own sandbox: a provider never reaches it (its simulators are not Adyen). */
  sandboxUrl: string;
}

const threeDS2ResultSchema = z.object({
  authenticationValue: z.string().optional(),
  eci: z.string().optional(),
  transStatus: z.string().optional(),
  dsTransID: z.string().optional(),
  messageVersion: z.string().optional(),
  threeDSServerTransID: z.string().optional(),
});

const answerSchema = z.object({
  resultCode: z.string(),
  pspReference: z.string().optional(),
  threeDS2Result: threeDS2ResultSchema.optional(),
  action: z.object({ type: z.string(), url: z.string().optional(), method: z.string().optional() }).optional(),
  refusalReason: z.string().optional(),
});

function failed(failureReason: string, transStatus: string | null = null): ProviderResult {
  return {
    transStatus,
    eci: null,
    authenticationValue: null,
    dsTransID: null,
    acsTransID: null,
    threeDSServerTransID: null,
    messageVersion: null,
    cardBrand: null,
    failureReason,
  };
}

function resultOf(answer: JsonAnswer): ProviderResult {
  if (answer.status !== 200) {
    const body = answer.body as { errorCode?: unknown; message?: unknown } | undefined;
    return failed(`adyen_request_refused: HTTP ${answer.status} ${String(body?.errorCode ?? '')}`.trim());
  }
  const parsed = answerSchema.safeParse(answer.body);
  if (!parsed.success) throw new ProcessorTechnicalError('Adyen answered in an unknown shape', 'invalid_response');
  const { resultCode, threeDS2Result, action } = parsed.data;
  if (resultCode === 'AuthenticationFinished' && threeDS2Result?.transStatus) {
    return {
      transStatus: threeDS2Result.transStatus,
      eci: threeDS2Result.eci ?? null,
      authenticationValue: threeDS2Result.authenticationValue ?? null,
      dsTransID: threeDS2Result.dsTransID ?? null,
      acsTransID: null,
      threeDSServerTransID: threeDS2Result.threeDSServerTransID ?? null,
      messageVersion: threeDS2Result.messageVersion ?? null,
      cardBrand: null,
    };
  }
  if (resultCode === 'RedirectShopper' && action?.type === 'redirect' && action.url) {
    if ((action.method ?? 'GET').toUpperCase() !== 'GET') return failed('adyen_challenge_method_unsupported');
    return { ...failed(''), failureReason: undefined, transStatus: 'C', challengeUrl: action.url };
  }
  if (resultCode === 'ChallengeShopper') return failed('adyen_challenge_method_unsupported');
  return failed(`adyen_${resultCode}`, threeDS2Result?.transStatus ?? null);
}

/** Adyen's idempotency keys are at most 64 characters; the session id fits with room to spare. */
function idempotencyKey(kind: string, reference: string): string {
  return `threeds-${kind}:${reference}`.slice(0, 64);
}

export function createAdyenAuthenticationOnlyProvider(options: AdyenProviderOptions): ThreeDsProvider {
  const credentials = parseAdyenCredentials(options.credentials);
  const base = checkoutBaseUrl(credentials);
  if (credentials.endpoint !== undefined) {
    const allowed = isEndpointAllowed(credentials.endpoint, parseEndpointAllow(options.endpointAllow));
    const sandbox = new URL(options.sandboxUrl).origin === new URL(credentials.endpoint).origin;
    if (!allowed || sandbox)
      throw new ProcessorTechnicalError(
        "the 3DS provider's endpoint names a host that is not in PROCESSOR_ENDPOINT_ALLOW, or the engine's sandbox; nothing was sent",
        'invalid_credentials',
      );
  }
  const send = (path: string, body: unknown, key: string) =>
    postJson({
      url: `${base}${path}`,
      headers: { 'x-api-key': credentials.apiKey, 'idempotency-key': key },
      body,
      timeoutMs: options.timeoutMs,
    });

  return {
    async authenticate(request: ProviderAuthenticationRequest): Promise<ProviderResult> {
      const threeRi = request.deviceChannel === '3ri';
      const holderName = request.cardholder?.name ?? request.cardholderName ?? undefined;
      const answer = await send(
        '/payments',
        {
          amount: { value: request.amount, currency: request.currency },
          merchantAccount: credentials.merchantAccount,
          reference: request.reference,
          returnUrl: request.notificationUrl,
          paymentMethod: {
            type: 'scheme',
            number: request.cardNumber,
            expiryMonth: String(request.expMonth).padStart(2, '0'),
            expiryYear: String(request.expYear),
            ...(holderName ? { holderName } : {}),
          },
          authenticationData: {
            authenticationOnly: true,
            attemptAuthentication: 'always',
            threeDSRequestData: { nativeThreeDS: 'disabled' },
          },
          channel: 'Web',
          shopperInteraction: threeRi ? 'ContAuth' : 'Ecommerce',
          ...(threeRi ? { recurringProcessingModel: 'Subscription' } : {}),
          ...(request.cardholder?.email ? { shopperEmail: request.cardholder.email } : {}),
        },
        idempotencyKey('auth', request.reference),
      );
      return resultOf(answer);
    },

    async result(challenge: OpenChallenge): Promise<ProviderResult | null> {
      // Without the redirect's token there is nothing to ask Adyen: the challenge stays open.
      if (!challenge.providerReturnData) return null;
      const answer = await send(
        '/payments/details',
        { details: { redirectResult: challenge.providerReturnData } },
        idempotencyKey('details', `${challenge.id}:${challenge.providerReturnData.slice(-16)}`),
      );
      // A token Adyen does not know (a forged or stale return) settles nothing; the timeout still will.
      if (answer.status === 422) return null;
      return resultOf(answer);
    },
  };
}
