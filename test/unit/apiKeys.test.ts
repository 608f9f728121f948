import { createHash, randomUUID } from 'node:crypto';
import {
  canActInMode,
  hashToken,
  isWellFormedToken,
  maskedToken,
  mintToken,
  processingKeyLabel,
  tokenLast4,
  tokenPrefix,
  visibleModes,
} from '../../src/domain/apiKeys';

describe('API key tokens', () => {
  it('shows a stored key as prefix…last4, or prefix… when its last 4 were never kept', () => {
    const token = 'sk_crm_test_0123456789abcdefghijABCDEFGHIJ0123456789wxyz';
    expect(tokenLast4(token)).toBe('wxyz');
    expect(maskedToken(tokenPrefix(token), tokenLast4(token))).toBe('sk_crm_test_…wxyz');
    expect(maskedToken('sk_crm_test_', null)).toBe('sk_crm_test_…');
  });

  it('mints each family in its format with 40 random base62 characters', () => {
    expect(mintToken('crm', 'test')).toMatch(/^sk_crm_test_[0-9A-Za-z]{40}$/);
    expect(mintToken('crm', 'live')).toMatch(/^sk_crm_live_[0-9A-Za-z]{40}$/);
    expect(mintToken('partner', 'live')).toMatch(/^tp_sk_live_[0-9A-Za-z]{40}$/);
    expect(mintToken('processing', 'test')).toMatch(/^tp_sk_test_[0-9A-Za-z]{40}$/);
  });

  it('never mints the same token twice', () => {
    const tokens = new Set(Array.from({ length: 500 }, () => mintToken('crm', 'test')));
    expect(tokens.size).toBe(500);
  });

  it('accepts the issued formats and older UUID tokens, and nothing else', () => {
    expect(isWellFormedToken(mintToken('crm', 'live'))).toBe(true);
    expect(isWellFormedToken(mintToken('partner', 'test'))).toBe(true);
    expect(isWellFormedToken(randomUUID())).toBe(true);
    expect(isWellFormedToken(randomUUID().toUpperCase())).toBe(true);
    for (const bad of [
      '',
      'sk_crm_prod_abcdefghijklmnopqrstuvwx',
      'sk_crm_test_short',
      'tp_sk_test_has-dash-abcdefghijklmnop',
      'Bearer x',
      '1234',
      `${randomUUID()}x`,
    ]) {
      expect(isWellFormedToken(bad)).toBe(false);
    }
  });

  it('hashes with SHA-256 (hex) and shows only the first 12 characters', () => {
    const token = 'sk_crm_test_abcdefghijklmnopqrstuvwxyz0123456789ABCD';
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).not.toBe(hashToken(`${token}E`));
    expect(tokenPrefix(token)).toBe('sk_crm_test_');
    expect(tokenPrefix('tp_sk_live_Zabc')).toBe('tp_sk_live_Z');
  });

  it('hashes a legacy UUID token the same in either case; new-format tokens stay case-sensitive', () => {
    const uuid = randomUUID();
    expect(hashToken(uuid.toUpperCase())).toBe(hashToken(uuid));
    expect(hashToken(uuid)).toBe(createHash('sha256').update(uuid).digest('hex'));
    const token = 'sk_crm_test_abcdefghijklmnopqrstuvwxyz0123456789ABCD';
    expect(hashToken(token.replace('abc', 'ABC'))).not.toBe(hashToken(token));
  });
});

describe('key modes and labels', () => {
  it('lets a test partner key act in test only, a live one in both', () => {
    expect(canActInMode('test', 'test')).toBe(true);
    expect(canActInMode('test', 'live')).toBe(false);
    expect(canActInMode('live', 'live')).toBe(true);
    expect(canActInMode('live', 'test')).toBe(true);
    expect(visibleModes('test')).toEqual(['test']);
    expect(visibleModes('live')).toEqual(['test', 'live']);
  });

  it('labels processing keys with the partner name and the external reference, else the account id', () => {
    expect(processingKeyLabel('Acme Payments', 'shop-42', 'acc_1')).toBe('Acme Payments shop-42');
    expect(processingKeyLabel('Acme Payments', null, 'acc_1')).toBe('Acme Payments acc_1');
    expect(processingKeyLabel('Acme Payments', '  ', 'acc_1')).toBe('Acme Payments acc_1');
  });
});
