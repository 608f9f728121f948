import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cardBrandOf, hasValidLengthForBrand, issuingCountryOf } from '../../src/domain/cardBrand';
import { isExpiryInFuture, passesLuhn } from '../../src/domain/luhn';
import { CardVaultError, decryptPan, encryptPan, keyFilePath, panFingerprint } from '../../src/vault/cardVault';

describe('Luhn and expiry', () => {
  it.each(['4242424242424242', '5555555555554444', '378282246310005', '6011111111111117', '3530111333300000'])(
    '%s passes Luhn',
    (pan) => {
      expect(passesLuhn(pan)).toBe(true);
    },
  );
  it.each(['4242424242424241', '1234567812345678', '', '4242 4242 4242 4242', 'abcd'])('"%s" fails Luhn', (pan) => {
    expect(passesLuhn(pan)).toBe(false);
  });
  it('treats the expiry month as valid until it ends (UTC)', () => {
    const now = new Date(Date.UTC(2026, 10, 30, 23, 59)); // 30 Nov 2026
    expect(isExpiryInFuture(11, 2026, now)).toBe(true);
    expect(isExpiryInFuture(10, 2026, now)).toBe(false);
    expect(isExpiryInFuture(1, 2027, now)).toBe(true);
    expect(isExpiryInFuture(12, 2025, now)).toBe(false);
  });
});

describe('card brand, length and issuing country', () => {
  it.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['378282246310005', 'amex'],
    ['6011111111111117', 'discover'],
    ['3530111333300000', 'jcb'],
    ['9999999999999995', 'unknown'],
  ])('%s is %s', (pan, brand) => {
    expect(cardBrandOf(pan)).toBe(brand);
  });
  it('rejects lengths a brand does not issue', () => {
    expect(hasValidLengthForBrand('378282246310005')).toBe(true);
    expect(hasValidLengthForBrand('3782822463100050')).toBe(false);
    expect(hasValidLengthForBrand('42424242424242')).toBe(false);
  });
  it('knows the issuing country of test BINs only', () => {
    expect(issuingCountryOf('4242424242424242')).toBe('US');
    expect(issuingCountryOf('9999999999999995')).toBeNull();
  });
});

describe('card vault (AES-256-GCM)', () => {
  const envKey = { ENCRYPTION_KEY: 'ab'.repeat(32), DATA_DIR: '/nonexistent' };

  it('round-trips a PAN and never contains it in the blob; each encryption differs', () => {
    const first = encryptPan('4242424242424242', 'pi_1', envKey);
    const second = encryptPan('4242424242424242', 'pi_1', envKey);
    expect(first).not.toContain('4242424242424242');
    expect(first).not.toBe(second);
    expect(decryptPan(first, 'pi_1', envKey)).toBe('4242424242424242');
    expect(decryptPan(second, 'pi_1', envKey)).toBe('4242424242424242');
  });

  it('refuses a tampered blob or a wrong key', () => {
    const blob = encryptPan('4242424242424242', 'pi_1', envKey);
    const parts = blob.split(':');
    const ciphertext = Buffer.from(parts[4]!, 'base64');
    ciphertext[0] = ciphertext[0]! ^ 1;
    const tampered = [...parts.slice(0, 4), ciphertext.toString('base64')].join(':');
    expect(() => decryptPan(tampered, 'pi_1', envKey)).toThrow(CardVaultError);
    expect(() => decryptPan(blob, 'pi_1', { ...envKey, ENCRYPTION_KEY: 'cd'.repeat(32) })).toThrow(CardVaultError);
    expect(() => decryptPan('garbage', 'pi_1', envKey)).toThrow(CardVaultError);
  });

  it('fingerprints the same card identically under one key and differently under another', () => {
    expect(panFingerprint('4242424242424242', envKey)).toBe(panFingerprint('4242424242424242', envKey));
    expect(panFingerprint('4242424242424242', envKey)).not.toBe(panFingerprint('5555555555554444', envKey));
    expect(panFingerprint('4242424242424242', envKey)).not.toBe(
      panFingerprint('4242424242424242', { ...envKey, ENCRYPTION_KEY: 'cd'.repeat(32) }),
    );
  });

  it('without ENCRYPTION_KEY, generates <DATA_DIR>/encryption.key once with mode 0600 and keeps using it', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-'));
    const source = { ENCRYPTION_KEY: undefined, DATA_DIR: dataDir };
    const blob = encryptPan('5555555555554444', 'pi_2', source);
    const file = keyFilePath(dataDir);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const key = fs.readFileSync(file, 'utf8').trim();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    // A fresh process would read the same file: decrypt with the key given explicitly.
    expect(decryptPan(blob, 'pi_2', { ENCRYPTION_KEY: key, DATA_DIR: '/unused' })).toBe('5555555555554444');
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(key);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
