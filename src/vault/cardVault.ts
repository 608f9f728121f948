import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { config, type Config } from '../config';

/**
 * Card numbers at rest: AES-256-GCM with a 32-byte key from ENCRYPTION_KEY (64 hex characters) or,
 * when unset, from `<DATA_DIR>/encryption.key`, generated on first use with mode 0600.
 * Blob format: `v1:<iv b64>:<tag b64>:<ciphertext b64>`. Nothing here logs its input.
 */
const version = 'v1';
const keyCache = new Map<string, Buffer>();

/** Where the vault key comes from: ENCRYPTION_KEY, else the key file under DATA_DIR. */
export type KeySource = Pick<Config, 'ENCRYPTION_KEY' | 'DATA_DIR'>;

export class CardVaultError extends Error {}

/** The encryption key: ENCRYPTION_KEY, else the local key file (created once, 0600). */
export function vaultKey(source: KeySource = config()): Buffer {
  const cacheKey = source.ENCRYPTION_KEY ? `env:${source.ENCRYPTION_KEY}` : `file:${source.DATA_DIR}`;
  const cached = keyCache.get(cacheKey);
  if (cached) return cached;
  const key = source.ENCRYPTION_KEY
    ? Buffer.from(source.ENCRYPTION_KEY, 'hex')
    : keyFromFile(keyFilePath(source.DATA_DIR));
  keyCache.set(cacheKey, key);
  return key;
}

export function keyFilePath(dataDir: string): string {
  return path.join(dataDir, 'encryption.key');
}

function keyFromFile(file: string): Buffer {
  if (!fs.existsSync(file)) {
    // The folder also holds embedded Postgres, whose server user must pass through it; the key file is 0600.
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o711 });
    // Written whole to a private temp file, then linked into place: link fails if the key exists,
    // so processes starting together never overwrite each other's key or see a half-written one.
    const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    fs.writeFileSync(temp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
    try {
      fs.linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }
  const hex = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new CardVaultError(`${file} does not hold a 64-hex-character key`);
  return Buffer.from(hex, 'hex');
}

export function encryptPan(pan: string, source?: KeySource): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', vaultKey(source), iv);
  const ciphertext = Buffer.concat([cipher.update(pan, 'utf8'), cipher.final()]);
  return [version, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join(
    ':',
  );
}

export function decryptPan(blob: string, source?: KeySource): string {
  const [blobVersion, iv, tag, ciphertext] = blob.split(':');
  if (blobVersion !== version || !iv || !tag || !ciphertext) throw new CardVaultError('not a card vault blob');
  const decipher = createDecipheriv('aes-256-gcm', vaultKey(source), Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new CardVaultError('card vault blob failed authentication (wrong key or tampered)');
  }
}

/** A keyed fingerprint: the same card gives the same value within one key, without being reversible. */
export function panFingerprint(pan: string, source?: KeySource): string {
  return createHmac('sha256', vaultKey(source)).update(`fingerprint:${pan}`).digest('hex');
}

/** Key of the Idempotency-Key request fingerprints: derived from the vault key, so no second secret to manage. */
export function idempotencyHashKey(source?: KeySource): Buffer {
  return createHmac('sha256', vaultKey(source)).update('idempotency-request-hash-v1').digest();
}
