import { deliveryPolicy } from '../../src/webhooks/delivery';
import type { LookupAddress } from 'node:dns';
import {
  assertWebhookUrlAllowed,
  blockedAddressReason,
  guardedLookup,
  parseWebhookUrl,
  type ResolveHost,
} from '../../src/webhooks/urlGuard';

const live = { allowInsecure: false, allowLoopback: false };
/** Test mode on an engine whose operator allows loopback receivers (WEBHOOK_ALLOW_LOOPBACK=true). */
const test = { allowInsecure: true, allowLoopback: true };
const testWithoutLoopback = { allowInsecure: true, allowLoopback: false };

/** A DNS that answers from a table, counting questions. */
function fakeDns(answers: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve: ResolveHost = async (hostname) => {
    asked.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
}

/** Runs a guarded lookup the way http.request does, as a promise. */
function lookUp(lookup: ReturnType<typeof guardedLookup>, hostname: string, all: boolean) {
  return new Promise<{ address: string | LookupAddress[]; family?: number }>((resolve, reject) =>
    lookup(hostname, { all }, (error, address, family) => (error ? reject(error) : resolve({ address, family }))),
  );
}

describe('webhook URL guard', () => {
  it.each([
    'https://127.0.0.1/hook',
    'https://127.1.2.3/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://10.0.0.5/hook',
    'https://172.16.3.4/hook',
    'https://192.168.1.1/hook',
    'https://100.64.0.1/hook',
    'https://0.0.0.0/hook',
    'https://[::1]/hook',
    'https://[::]/hook',
    'https://[fe80::1]/hook',
    'https://[fd00:ec2::254]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:a9fe:a9fe]/hook',
    'https://metadata.google.internal/computeMetadata',
    'http://example.com/hook',
    'ftp://example.com/hook',
    'https://user:pw@example.com/hook',
    'not a url',
  ])('refuses %s in live mode', (url) => {
    expect(() => parseWebhookUrl(url, live)).toThrow();
  });

  it('allows loopback and http in test mode, but never private, link-local or metadata addresses', () => {
    expect(parseWebhookUrl('http://127.0.0.1:8080/hook', test).port).toBe('8080');
    expect(() => parseWebhookUrl('http://[::1]:8080/hook', test)).not.toThrow();
    for (const url of ['http://169.254.169.254/', 'http://10.1.1.1/', 'http://[fe80::1]/', 'http://192.168.0.10/']) {
      expect(() => parseWebhookUrl(url, test)).toThrow(/not allowed/);
    }
  });

  it('refuses loopback in test mode unless the operator allows it, with its own code', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://[::1]:8080/hook', 'http://[::ffff:127.0.0.1]/hook']) {
      expect(() => parseWebhookUrl(url, testWithoutLoopback)).toThrow(
        expect.objectContaining({
          code: 'WEBHOOK_LOOPBACK_NOT_ALLOWED',
          message: expect.stringMatching(/loopback receivers are turned off .*WEBHOOK_ALLOW_LOOPBACK=true/),
        }),
      );
    }
    const dns = fakeDns({ 'hooks.shop.example': ['127.0.0.1'] });
    await expect(
      assertWebhookUrlAllowed('http://hooks.shop.example/in', testWithoutLoopback, dns.resolve),
    ).rejects.toMatchObject({ code: 'WEBHOOK_LOOPBACK_NOT_ALLOWED' });
    // Plain http on a public host stays allowed in test mode; the other refusals keep their code.
    expect(parseWebhookUrl('http://93.184.216.34/hook', testWithoutLoopback).protocol).toBe('http:');
    expect(() => parseWebhookUrl('http://10.0.0.1/hook', test)).toThrow(
      expect.objectContaining({ code: 'INVALID_WEBHOOK_URL' }),
    );
  });

  it('relaxes to http only in test mode or with insecure URLs, and to loopback only with WEBHOOK_ALLOW_LOOPBACK', () => {
    const off = { WEBHOOK_ALLOW_INSECURE_URLS: false, WEBHOOK_ALLOW_LOOPBACK: undefined };
    expect(deliveryPolicy(off, 'live')).toEqual({ allowInsecure: false, allowLoopback: false });
    expect(deliveryPolicy(off, 'test')).toEqual({ allowInsecure: true, allowLoopback: false });
    expect(deliveryPolicy({ ...off, WEBHOOK_ALLOW_LOOPBACK: false }, 'test')).toEqual({
      allowInsecure: true,
      allowLoopback: false,
    });
    expect(deliveryPolicy({ ...off, WEBHOOK_ALLOW_LOOPBACK: true }, 'test')).toEqual({
      allowInsecure: true,
      allowLoopback: true,
    });
    expect(deliveryPolicy({ WEBHOOK_ALLOW_INSECURE_URLS: true, WEBHOOK_ALLOW_LOOPBACK: true }, 'live')).toEqual({
      allowInsecure: true,
      allowLoopback: true,
    });
  });

  it('accepts public addresses', () => {
    expect(blockedAddressReason('93.184.216.34', live)).toBeUndefined();
    expect(blockedAddressReason('2606:2800:220:1:248:1893:25c8:1946', live)).toBeUndefined();
    expect(parseWebhookUrl('https://93.184.216.34/hook', live).hostname).toBe('93.184.216.34');
  });

  it('checks the addresses a hostname resolves to', async () => {
    await expect(assertWebhookUrlAllowed('https://localhost/hook', live)).rejects.toThrow(/resolves to/);
    await expect(assertWebhookUrlAllowed('http://localhost:9/hook', test)).resolves.toBeInstanceOf(URL);
    await expect(assertWebhookUrlAllowed('https://no-such-host.invalid/hook', live)).rejects.toThrow(
      /does not resolve/,
    );
  });

  it.each([
    ['a private address', ['10.0.0.5'], /resolves to 10\.0\.0\.5: private/],
    ['public and private addresses', ['93.184.216.34', '192.168.1.20'], /resolves to 192\.168\.1\.20: private/],
    [
      'the cloud metadata address',
      ['169.254.169.254'],
      /resolves to 169\.254\.169\.254: private, link-local, metadata/,
    ],
    ['an IPv6 unique local address', ['2606:2800:220:1::1', 'fd12::5'], /resolves to fd12::5: private/],
    ['an IPv4-mapped private address', ['::ffff:10.1.2.3'], /resolves to ::ffff:10\.1\.2\.3: private/],
    [
      'loopback in live mode',
      ['127.0.0.1'],
      /resolves to 127\.0\.0\.1: loopback addresses are only allowed in test mode/,
    ],
  ])('refuses a host name resolving to %s', async (_label, addresses, message) => {
    const dns = fakeDns({ 'hooks.shop.example': addresses });
    await expect(assertWebhookUrlAllowed('https://hooks.shop.example/in', live, dns.resolve)).rejects.toThrow(message);
    expect(dns.asked).toEqual(['hooks.shop.example']);
  });

  it('accepts a host name whose every address is public, and says so when a name does not resolve', async () => {
    const dns = fakeDns({ 'hooks.shop.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
    const url = await assertWebhookUrlAllowed('https://hooks.shop.example/in', live, dns.resolve);
    expect(url.hostname).toBe('hooks.shop.example');
    await expect(assertWebhookUrlAllowed('https://gone.shop.example/in', live, dns.resolve)).rejects.toThrow(
      /gone\.shop\.example does not resolve/,
    );
    await expect(
      assertWebhookUrlAllowed('https://empty.shop.example/in', live, fakeDns({ 'empty.shop.example': [] }).resolve),
    ).rejects.toThrow(/does not resolve/);
  });

  it('checks the dialled address again, so a DNS answer that changes after the check (rebinding) is refused', async () => {
    let calls = 0;
    const rebinding: ResolveHost = async () => [{ address: ++calls === 1 ? '93.184.216.34' : '10.0.0.5', family: 4 }];
    await expect(assertWebhookUrlAllowed('https://rebind.example/in', live, rebinding)).resolves.toBeInstanceOf(URL);
    const lookup = guardedLookup(live, rebinding);
    await expect(lookUp(lookup, 'rebind.example', false)).rejects.toMatchObject({
      code: 'EBLOCKED',
      message: expect.stringMatching(/rebind\.example resolves to 10\.0\.0\.5/),
    });
    expect(calls).toBe(2);
  });

  it('the guarded lookup answers like dns.lookup: one address, or all of them when asked', async () => {
    const dns = fakeDns({ 'hooks.shop.example': ['93.184.216.34', '2606:2800:220:1::1'] });
    const lookup = guardedLookup(live, dns.resolve);
    expect(await lookUp(lookup, 'hooks.shop.example', false)).toEqual({ address: '93.184.216.34', family: 4 });
    expect((await lookUp(lookup, 'hooks.shop.example', true)).address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    await expect(lookUp(lookup, 'nowhere.example', false)).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});
