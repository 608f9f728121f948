import { normaliseHostname, txtRecordsMatch, verificationRecord } from '../../src/domain/hostnames';

describe('custom domain hostnames', () => {
  it('lower-cases and drops a trailing dot', () => {
    expect(normaliseHostname(' Shop.Example.COM. ')).toBe('shop.example.com');
    expect(normaliseHostname('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
  });

  it('refuses what is not a public hostname', () => {
    for (const bad of [
      '',
      'localhost',
      '192.168.0.1',
      'a..b.com',
      '-a.com',
      'a-.com',
      'a_b.com',
      'a.1',
      'https://a.com',
    ])
      expect(normaliseHostname(bad)).toBeNull();
    expect(normaliseHostname(`${'a'.repeat(64)}.com`)).toBeNull();
    expect(normaliseHostname(`${'a.'.repeat(126)}com`)).toBeNull();
  });

  it('matches the TXT value whole, joining split character-strings', () => {
    const { name, value } = verificationRecord('shop.example.com', 'tok123');
    expect(name).toBe('_payengine-verify.shop.example.com');
    expect(txtRecordsMatch([['other'], ['payengine-verify=', 'tok123']], value)).toBe(true);
    expect(txtRecordsMatch([['payengine-verify=tok1234']], value)).toBe(false);
    expect(txtRecordsMatch([], value)).toBe(false);
  });
});
