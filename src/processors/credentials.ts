import type { Config } from '../config';
import { openJson, sealJson, SecretBoxError } from '../vault/secretBox';

/**
 * Processor credentials (an object of strings) sealed for `Processor.encryptedCredentials`.
 * The API seals them on create/update; the payment activities open them right before a call.
 */
const purpose = 'processor-credentials';

type KeySource = Pick<Config, 'ENCRYPTION_KEY' | 'DATA_DIR'>;

export function sealProcessorCredentials(credentials: Record<string, string>, source?: KeySource): string {
  return sealJson(credentials, purpose, source);
}

export function openProcessorCredentials(blob: string, source?: KeySource): Record<string, string> {
  const value = openJson<unknown>(blob, purpose, source);
  if (
    !value ||
    typeof value !== 'object' ||
    Array.isArray(value) ||
    Object.values(value).some((v) => typeof v !== 'string')
  ) {
    throw new SecretBoxError('sealed processor credentials are not an object of strings');
  }
  return value as Record<string, string>;
}
