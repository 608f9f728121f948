import { createCipheriv, randomBytes } from 'node:crypto';
import { ConfigError, parseConfig } from '../../src/config';
import { openProcessorCredentials, sealProcessorCredentials } from '../../src/processors/credentials';
import { isValidReturnToken, returnToken } from '../../src/threeds/returnLink';
import { decryptPan, encryptPan } from '../../src/vault/cardVault';
import { keyring, purposeKey } from '../../src/vault/keyring';
import { blobKeyId, openSecret, sealSecret, SecretBoxError } from '../../src/vault/secretBox';
import { openEndpointSecret, sealEndpointSecret } from '../../src/webhooks/endpointSecrets';

const DATA_DIR = '/nonexistent';
const hexKey = () => randomBytes(32).toString('hex');
const pan = '4242424242424242';

function legacyBlob(version: 'v1' | 'sb1', plaintext: string, masterHex: string, aad?: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(masterHex, 'hex'), iv);
  if (aad) cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [version, ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64'))].join(':');
}

describe('vault keys: one key per purpose, blobs bound to their row, a key id in every blob', () => {
  const source = { ENCRYPTION_KEY: hexKey(), DATA_DIR };

  it('derives a different key for each purpose, none of them the master key', () => {
    const master = keyring(source).current;
    const keys = (['card', 'card-fingerprint', 'processor-credentials', 'webhook-signing'] as const).map((purpose) =>
      purposeKey(master, purpose).toString('hex'),
    );
    expect(new Set([...keys, master.secret.toString('hex')]).size).toBe(5);
    expect(keys.every((key) => key.length === 64)).toBe(true);
    // Deterministic: another process with the same master key derives the same keys.
    expect(purposeKey({ ...master }, 'card').toString('hex')).toBe(keys[0]);
    // A blob of one purpose does not open as another, even for the same owner.
    const blob = sealSecret('secret', { purpose: 'webhook-signing', owner: 'x_1' }, source);
    expect(() => openSecret(blob, { purpose: 'processor-credentials', owner: 'x_1' }, source)).toThrow(SecretBoxError);
  });

  it('a blob copied to another row fails to open: cards, processor credentials, endpoint secrets', () => {
    const card = encryptPan(pan, 'pi_a', source);
    expect(decryptPan(card, 'pi_a', source)).toBe(pan);
    expect(() => decryptPan(card, 'pi_b', source)).toThrow(SecretBoxError);

    const credentials = sealProcessorCredentials({ apiKey: 'sk_1' }, 'proc_a', source);
    expect(openProcessorCredentials(credentials, 'proc_a', source)).toEqual({ apiKey: 'sk_1' });
    expect(() => openProcessorCredentials(credentials, 'proc_b', source)).toThrow(SecretBoxError);

    const secret = sealEndpointSecret('whsec_1', 'wh_a', source);
    expect(secret).not.toContain('whsec_1');
    expect(openEndpointSecret(secret, 'wh_a', source)).toBe('whsec_1');
    expect(() => openEndpointSecret(secret, 'wh_b', source)).toThrow(SecretBoxError);
  });

  it('carries the master key id; a previous key still opens its blobs, a forgotten one is named', () => {
    const oldKey = hexKey();
    const newKey = hexKey();
    const blob = encryptPan(pan, 'pi_a', { ENCRYPTION_KEY: oldKey, DATA_DIR });
    const oldId = keyring({ ENCRYPTION_KEY: oldKey, DATA_DIR }).current.id;
    expect(blob.startsWith(`v2:${oldId}:`)).toBe(true);
    expect(blobKeyId(blob)).toBe(oldId);

    const rotated = { ENCRYPTION_KEY: newKey, ENCRYPTION_KEYS_PREVIOUS: [oldKey], DATA_DIR };
    expect(decryptPan(blob, 'pi_a', rotated)).toBe(pan);
    const fresh = encryptPan(pan, 'pi_a', rotated);
    expect(blobKeyId(fresh)).toBe(keyring(rotated).current.id);
    expect(blobKeyId(fresh)).not.toBe(oldId);
    expect(() => decryptPan(blob, 'pi_a', { ENCRYPTION_KEY: newKey, DATA_DIR })).toThrow(
      new RegExp(`master key ${oldId}, which is neither ENCRYPTION_KEY nor in ENCRYPTION_KEYS_PREVIOUS`),
    );
  });

  it('reads the formats before key ids (v1 cards, sb1 secrets), also once their key is a previous one', () => {
    const oldKey = hexKey();
    const v1 = legacyBlob('v1', pan, oldKey);
    const sb1 = legacyBlob('sb1', JSON.stringify({ merchantId: 'm_1' }), oldKey, 'processor-credentials');
    for (const ring of [
      { ENCRYPTION_KEY: oldKey, DATA_DIR },
      { ENCRYPTION_KEY: hexKey(), ENCRYPTION_KEYS_PREVIOUS: [hexKey(), oldKey], DATA_DIR },
    ]) {
      expect(decryptPan(v1, 'pi_any', ring)).toBe(pan);
      expect(openProcessorCredentials(sb1, 'proc_any', ring)).toEqual({ merchantId: 'm_1' });
    }
    expect(blobKeyId(v1)).toBeNull();
    expect(() => decryptPan(v1, 'pi_any', { ENCRYPTION_KEY: hexKey(), DATA_DIR })).toThrow(SecretBoxError);
    // A legacy card blob is no credentials blob, and the reverse.
    expect(() => openProcessorCredentials(v1, 'proc_any', { ENCRYPTION_KEY: oldKey, DATA_DIR })).toThrow(
      SecretBoxError,
    );
    expect(() => decryptPan(sb1, 'pi_any', { ENCRYPTION_KEY: oldKey, DATA_DIR })).toThrow(SecretBoxError);
    // Endpoint secrets stored in clear before sealing are read as they are.
    expect(openEndpointSecret('whsec_legacy', 'wh_any', { ENCRYPTION_KEY: oldKey, DATA_DIR })).toBe('whsec_legacy');
  });

  it('keeps 3DS return links signed before a rotation valid while their key is a previous one', () => {
    const oldKey = hexKey();
    const token = returnToken({ ENCRYPTION_KEY: oldKey, DATA_DIR }, '3ds_1');
    const rotated = { ENCRYPTION_KEY: hexKey(), ENCRYPTION_KEYS_PREVIOUS: [oldKey], DATA_DIR };
    expect(isValidReturnToken(rotated, '3ds_1', token)).toBe(true);
    expect(isValidReturnToken(rotated, '3ds_2', token)).toBe(false);
    expect(isValidReturnToken({ ENCRYPTION_KEY: rotated.ENCRYPTION_KEY, DATA_DIR }, '3ds_1', token)).toBe(false);
  });
});

describe('vault configuration', () => {
  it('refuses NODE_ENV=production without ENCRYPTION_KEY, in one line naming it', () => {
    let error: unknown;
    try {
      parseConfig({ NODE_ENV: 'production' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /^invalid configuration: ENCRYPTION_KEY: must be set when NODE_ENV=production \(.+\)$/,
    );
    expect(parseConfig({ NODE_ENV: 'production', ENCRYPTION_KEY: hexKey() }).NODE_ENV).toBe('production');
    expect(parseConfig({ NODE_ENV: 'development' }).ENCRYPTION_KEY).toBeUndefined();
  });

  it('reads ENCRYPTION_KEYS_PREVIOUS as a comma-separated list of keys', () => {
    const [a, b] = [hexKey(), hexKey()];
    expect(parseConfig({}).ENCRYPTION_KEYS_PREVIOUS).toEqual([]);
    expect(parseConfig({ ENCRYPTION_KEYS_PREVIOUS: ` ${a}, ${b} ` }).ENCRYPTION_KEYS_PREVIOUS).toEqual([a, b]);
    expect(() => parseConfig({ ENCRYPTION_KEYS_PREVIOUS: `${a},short` })).toThrow(
      /^invalid configuration: ENCRYPTION_KEYS_PREVIOUS\.1: must be a comma-separated list of 64-hex-character keys$/,
    );
  });
});
