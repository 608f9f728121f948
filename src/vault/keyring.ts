import { hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { config, type Config } from '../config';
import { writeKeyFileOnce } from './keyFile';

/**
 * The vault's master keys: the current one (ENCRYPTION_KEY, else outside production the key file
 * `<DATA_DIR>/encryption.key`, generated on first use with mode 0600) seals everything new; the
 * previous ones (ENCRYPTION_KEYS_PREVIOUS) are only read, until `admin -- rotate-keys` has moved
 * their blobs. A master key is never used directly: each purpose gets its own key from it by HKDF.
 */
export type KeySource = Pick<Config, 'ENCRYPTION_KEY' | 'DATA_DIR'> & Partial<Pick<Config, 'ENCRYPTION_KEYS_PREVIOUS'>>;

export interface MasterKey {
  /** Names the key inside blobs: derived from the key itself, so it needs no configuration and never lies. */
  id: string;
  secret: Buffer;
}

export interface Keyring {
  current: MasterKey;
  /** Every key that may still open a blob: the current one first. */
  all: MasterKey[];
  byId: Map<string, MasterKey>;
}

/** What a derived key is for; a key of one purpose never opens another purpose's blobs. */
export type VaultPurpose = 'card' | 'card-fingerprint' | 'processor-credentials' | 'webhook-signing';

export class VaultKeyError extends Error {}

const rings = new Map<string, Keyring>();
const derived = new Map<string, Buffer>();

export function keyring(source: KeySource = config()): Keyring {
  const previous = source.ENCRYPTION_KEYS_PREVIOUS ?? [];
  const cacheKey = `${source.ENCRYPTION_KEY ? `env:${source.ENCRYPTION_KEY}` : `file:${source.DATA_DIR}`}|${previous.join(',')}`;
  const cached = rings.get(cacheKey);
  if (cached) return cached;
  const current = masterKey(
    source.ENCRYPTION_KEY ? Buffer.from(source.ENCRYPTION_KEY, 'hex') : keyFromFile(keyFilePath(source.DATA_DIR)),
  );
  const all = [current];
  for (const hex of previous) {
    const key = masterKey(Buffer.from(hex, 'hex'));
    if (!all.some((known) => known.id === key.id)) all.push(key);
  }
  const ring = { current, all, byId: new Map(all.map((key) => [key.id, key])) };
  rings.set(cacheKey, ring);
  return ring;
}

/** The key of one purpose under one master key (HKDF-SHA256, the purpose as its info). */
export function purposeKey(master: MasterKey, purpose: VaultPurpose): Buffer {
  const cacheKey = `${master.id}:${purpose}`;
  let key = derived.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', master.secret, 'payment-engine-vault', `purpose:${purpose}`, 32));
    derived.set(cacheKey, key);
  }
  return key;
}

function masterKey(secret: Buffer): MasterKey {
  const id = Buffer.from(hkdfSync('sha256', secret, 'payment-engine-vault', 'key-id', 6)).toString('hex');
  return { id, secret };
}

export function keyFilePath(dataDir: string): string {
  return path.join(dataDir, 'encryption.key');
}

function keyFromFile(file: string): Buffer {
  if (!fs.existsSync(file)) {
    writeKeyFileOnce(file, `${randomBytes(32).toString('hex')}\n`);
  }
  const hex = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new VaultKeyError(`${file} does not hold a 64-hex-character key`);
  return Buffer.from(hex, 'hex');
}
