import { parseConfig } from '../../src/config';
import { isDomainError } from '../../src/errors';
import type { Logger } from '../../src/logging/logger';
import { createPortalLoginLimits, type WindowCounterFactory } from '../../src/portal/loginLimits';

/** In-memory fixed windows that never reset, keyed by limit name and key. */
function counters(): { factory: WindowCounterFactory; keys: string[] } {
  const counts = new Map<string, number>();
  const keys: string[] = [];
  return {
    keys,
    factory: (name, windowMs) => ({
      hit: async (key) => {
        keys.push(`${name}:${key}`);
        const used = (counts.get(`${name}:${key}`) ?? 0) + 1;
        counts.set(`${name}:${key}`, used);
        return { used, resetTime: new Date(Date.now() + windowMs / 2) };
      },
    }),
  };
}

const silent = { error: jest.fn() } as unknown as Logger & { error: jest.Mock };
const config = parseConfig({ PORTAL_LOGIN_MAX_PER_EMAIL: '2', PORTAL_LOGIN_WINDOW_MINUTES: '10' });

describe('portal sign-in limits', () => {
  it('refuses past the limit as rate_limited with the seconds until the window resets', async () => {
    const limits = createPortalLoginLimits(config, counters().factory, silent);
    const attempt = () => limits.login({ storeId: 'store_1', email: 'ann@example.com', clientIp: '192.0.2.1' });
    await attempt();
    await attempt();
    const refusal = await attempt().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isDomainError(refusal, 'RATE_LIMITED')).toBe(true);
    expect((refusal as { kind: string }).kind).toBe('rate_limited');
    const retryAfter = (refusal as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds;
    expect(retryAfter).toBeGreaterThanOrEqual(299);
    expect(retryAfter).toBeLessThanOrEqual(300);
  });

  it('keys e-mails by a hash, never the address', async () => {
    const { factory, keys } = counters();
    await createPortalLoginLimits(config, factory, silent).login({
      storeId: 'store_1',
      email: 'ann@example.com',
      clientIp: '192.0.2.1',
    });
    expect(keys).toHaveLength(2);
    expect(keys.join(' ')).not.toContain('ann@');
    expect(keys.find((key) => key.startsWith('login-email:'))).toMatch(/^login-email:[0-9a-f]{64}$/);
  });

  it('lets the attempt through and logs when the counter store fails', async () => {
    const failing: WindowCounterFactory = () => ({ hit: () => Promise.reject(new Error('redis down')) });
    const logger = { error: jest.fn() } as unknown as Logger & { error: jest.Mock };
    const limits = createPortalLoginLimits(config, failing, logger);
    for (let i = 0; i < 5; i++) await limits.confirmFromIp('192.0.2.1');
    expect(logger.error).toHaveBeenCalled();
  });
});
