import type { Config } from '../config';
import { engineBaseUrl, isValidLinkToken, linkToken } from '../threeds/returnLink';
import type { KeySource } from '../vault/keyring';

/**
 * The two browser links of a processor-hosted authentication (step-up) of one payment attempt:
 * - the start link, the payment's `redirectUrl`: `/api/public/v1/payments/{id}/authentication`,
 *   which sends the browser on to the processor's page;
 * - the return link the processor sends the browser back to: `…/authentication/return`.
 * A browser carries no API key, so both carry a token: an HMAC of payment id and attempt number
 * under a key derived from the engine's encryption key (see returnLink.ts).
 */
const purpose = 'payment-step-up-link-v1';
const subjectOf = (paymentId: string, attemptNumber: number) => `${paymentId}\n${attemptNumber}`;

export function stepUpToken(config: KeySource, paymentId: string, attemptNumber: number): string {
  return linkToken(config, purpose, subjectOf(paymentId, attemptNumber));
}

export function isValidStepUpToken(config: KeySource, paymentId: string, attemptNumber: number, token: unknown) {
  return isValidLinkToken(config, purpose, subjectOf(paymentId, attemptNumber), token);
}

type LinkConfig = KeySource & Pick<Config, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'>;

function link(config: LinkConfig, path: string, paymentId: string, attemptNumber: number, seenByApi?: string | null) {
  const url = new URL(`${engineBaseUrl(config, seenByApi)}/api/public/v1/payments/${paymentId}/${path}`);
  url.searchParams.set('attempt', String(attemptNumber));
  url.searchParams.set('token', stepUpToken(config, paymentId, attemptNumber));
  return url.toString();
}

export const stepUpStartUrl = (
  config: LinkConfig,
  paymentId: string,
  attemptNumber: number,
  seenByApi?: string | null,
) => link(config, 'authentication', paymentId, attemptNumber, seenByApi);

export const stepUpReturnUrl = (
  config: LinkConfig,
  paymentId: string,
  attemptNumber: number,
  seenByApi?: string | null,
) => link(config, 'authentication/return', paymentId, attemptNumber, seenByApi);
