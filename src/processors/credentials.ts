import type { KeySource } from '../vault/keyring';
import { openJson, sealJson, SecretBoxError } from '../vault/secretBox';

/**
 * Processor credentials (an object of strings) sealed for `Processor.encryptedCredentials`, bound
 * to the processor's id. The API seals them on create/update; the payment activities open them
 * right before a call.
 */
const purpose = 'processor-credentials';

export function sealProcessorCredentials(
  credentials: Record<string, string>,
  processorId: string,
  source?: KeySource,
): string {
  return sealJson(credentials, { purpose, owner: processorId }, source);
}

export function openProcessorCredentials(
  blob: string,
  processorId: string,
  source?: KeySource,
): Record<string, string> {
  const value = openJson<unknown>(blob, { purpose, owner: processorId }, source);
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
