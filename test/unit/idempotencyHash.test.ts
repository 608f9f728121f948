import { createHash, randomBytes } from 'node:crypto';
import { canonical, requestHashOf } from '../../src/idempotency/requestHash';
import { idempotencyHashKey } from '../../src/vault/cardVault';

const request = (body: unknown) => ({ method: 'POST', baseUrl: '/api/public/v1', path: '/payment-instruments', body });
const card = { customerId: 'cus_1', card: { number: '4242424242424242', expMonth: 12, expYear: 2031, cvc: '123' } };

describe('Idempotency-Key request fingerprints', () => {
  const key = randomBytes(32);

  it('are deterministic under one key, whatever the key order of the body, so a repeat is recognised', () => {
    const reordered = {
      card: { cvc: '123', expYear: 2031, expMonth: 12, number: '4242424242424242' },
      customerId: 'cus_1',
    };
    expect(requestHashOf(request(card), key)).toBe(requestHashOf(request(reordered), key));
    expect(requestHashOf(request(card), key)).not.toBe(requestHashOf(request({ ...card, customerId: 'cus_2' }), key));
  });

  it('are keyed: without the key, hashing guessed card numbers and CVCs never reproduces them', () => {
    const text = `POST /api/public/v1/payment-instruments\n${canonical(card)}`;
    const stored = requestHashOf(request(card), key);
    expect(stored).not.toBe(createHash('sha256').update(text).digest('hex'));
    expect(stored).not.toBe(requestHashOf(request(card), randomBytes(32)));
  });

  it('use a key derived from the vault key, distinct from it and stable for one vault key', () => {
    const source = { ENCRYPTION_KEY: randomBytes(32).toString('hex'), DATA_DIR: '/nonexistent' };
    const derived = idempotencyHashKey(source);
    expect(derived).toHaveLength(32);
    expect(derived.equals(Buffer.from(source.ENCRYPTION_KEY, 'hex'))).toBe(false);
    expect(idempotencyHashKey({ ...source }).equals(derived)).toBe(true);
    expect(idempotencyHashKey({ ...source, ENCRYPTION_KEY: randomBytes(32).toString('hex') }).equals(derived)).toBe(
      false,
    );
  });
});
