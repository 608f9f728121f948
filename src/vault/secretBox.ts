import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { vaultKey } from './cardVault';

/**
 * Secrets at rest other than card numbers (processor credentials): AES-256-GCM with the vault key.
 * The purpose is bound as additional authenticated data, so a blob sealed for one purpose cannot
 * be opened as another. Blob format: `sb1:<iv b64>:<tag b64>:<ciphertext b64>`.
 */
const version = 'sb1';

type KeySource = Pick<Config, 'ENCRYPTION_KEY' | 'DATA_DIR'>;

export class SecretBoxError extends Error {}

export function sealSecret(plaintext: string, purpose: string, source?: KeySource): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', vaultKey(source), iv);
  cipher.setAAD(Buffer.from(purpose, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [version, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(
    ':',
  );
}

export function openSecret(blob: string, purpose: string, source?: KeySource): string {
  const [blobVersion, iv, tag, ciphertext, ...rest] = blob.split(':');
  if (blobVersion !== version || !iv || !tag || ciphertext === undefined || rest.length)
    throw new SecretBoxError('not a secret box blob');
  const decipher = createDecipheriv('aes-256-gcm', vaultKey(source), Buffer.from(iv, 'base64'));
  decipher.setAAD(Buffer.from(purpose, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('secret box blob failed authentication (wrong key, purpose or tampered)');
  }
}

export function sealJson(value: unknown, purpose: string, source?: KeySource): string {
  return sealSecret(JSON.stringify(value), purpose, source);
}

export function openJson<T = unknown>(blob: string, purpose: string, source?: KeySource): T {
  return JSON.parse(openSecret(blob, purpose, source)) as T;
}
