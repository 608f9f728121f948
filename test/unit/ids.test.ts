import { newId, randomBase62 } from '../../src/domain/ids';

describe('prefixed ids', () => {
  it.each([
    ['store', 'store_'],
    ['payment', 'pay_'],
    ['order', 'ord_'],
    ['paymentInstrument', 'pi_'],
    ['checkoutSession', 'ch_'],
    ['threeDsSession', '3ds_'],
    ['processingAccount', 'tpa_'],
    ['event', 'evt_'],
  ] as const)('%s ids start with %s', (kind, prefix) => {
    const id = newId(kind);
    expect(id.startsWith(prefix)).toBe(true);
    expect(id).toHaveLength(prefix.length + 20);
  });

  it('does not repeat and uses only base62', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => randomBase62(20)));
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z]{20}$/);
  });
});
