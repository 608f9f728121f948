import { deliveryPolicy } from '../../src/webhooks/delivery';
import { assertWebhookUrlAllowed, blockedAddressReason, parseWebhookUrl } from '../../src/webhooks/urlGuard';

const live = { allowInsecure: false };
const test = { allowInsecure: true };

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

  it('relaxes to http and loopback only in test mode or when the operator allows insecure URLs', () => {
    expect(deliveryPolicy({ WEBHOOK_ALLOW_INSECURE_URLS: false }, 'live')).toEqual({ allowInsecure: false });
    expect(deliveryPolicy({ WEBHOOK_ALLOW_INSECURE_URLS: false }, 'test')).toEqual({ allowInsecure: true });
    expect(deliveryPolicy({ WEBHOOK_ALLOW_INSECURE_URLS: true }, 'live')).toEqual({ allowInsecure: true });
  });

  it('accepts public addresses', () => {
    expect(blockedAddressReason('93.184.216.34', live)).toBeUndefined();
    expect(blockedAddressReason('2606:2800:220:1:248:1893:25c8:1946', live)).toBeUndefined();
    expect(parseWebhookUrl('https://93.184.216.34/hook', live).hostname).toBe('93.184.216.34');
  });

  it('checks the addresses a hostname resolves to', async () => {
    await expect(assertWebhookUrlAllowed('https://localhost/hook', live)).rejects.toThrow(/resolves to/);
    await expect(assertWebhookUrlAllowed('http://localhost:9/hook', test)).resolves.toBeInstanceOf(URL);
    await expect(assertWebhookUrlAllowed('https://no-such-host.invalid/hook', live)).rejects.toThrow(/does not resolve/);
  });
});
