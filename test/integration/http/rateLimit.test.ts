import { testRedisUrl, withRedis } from '../../helpers/redis';
import { createPrismaClient } from '../../../src/db/prisma';
import { closeRateLimitConnections } from '../../../src/http/rate-limit/stores';
import { createLogger } from '../../../src/logging/logger';
import { startApi, type RunningApi } from '../../../src/runtime/api';
import { addCrmKey, addProcessingKey, createMerchant } from '../../helpers/fixtures';
import { call, type ApiAnswer } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';

/** `count` calls, ten at a time; returns every answer in order. */
async function burst(count: number, send: (i: number) => Promise<ApiAnswer>): Promise<ApiAnswer[]> {
  const answers: ApiAnswer[] = [];
  for (let start = 0; start < count; start += 10) {
    const batch = Array.from({ length: Math.min(10, count - start) }, (_, j) => send(start + j));
    answers.push(...(await Promise.all(batch)));
  }
  return answers;
}

const authTest = (server: { url: string }, token: string) => call(server, 'GET', '/api/public/v1/auth/test', { token });

describe('per-account rate limits (docs/api-keys.md, rate limits)', () => {
  const harness = useHarness();

  it('Standard: 150 requests pass (burst), the next gets 429 with Retry-After and RateLimit headers, for every key of the account', async () => {
    const merchant = await createMerchant(harness.db, { plan: 'standard' });
    const answers = await burst(150, () => authTest(harness, merchant.token));
    expect(answers.map((a) => a.status)).toEqual(Array(150).fill(200));
    const first = answers[0]!;
    expect(first.headers.get('ratelimit-limit')).toBe('150');
    expect(first.headers.get('ratelimit-policy')).toBe('150;w=60, 500;w=300');
    const remaining = answers.map((a) => Number(a.headers.get('ratelimit-remaining')));
    expect(Math.min(...remaining)).toBe(0);
    expect(Math.max(...remaining)).toBe(149);

    const refused = await authTest(harness, merchant.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/150 requests per 60 s \(burst\); retry after \d+ s/),
    });
    const retryAfter = refused.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-limit')).toBe('150');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-reset')).toBe(retryAfter);

    // The quota is the account's: another key of it, and its processing key, are limited too.
    const secondKey = await addCrmKey(harness.db, merchant);
    expect((await authTest(harness, secondKey)).status).toBe(429);
    const store = await harness.db.store.create({
      data: {
        id: `store_rl${Date.now()}`,
        accountId: merchant.accountId,
        mode: 'test',
        name: 'S',
        baseCurrency: 'EUR',
        presentmentCurrencies: ['EUR'],
      },
    });
    const processing = await addProcessingKey(harness.db, merchant, [store.id]);
    expect((await call(harness, 'GET', '/api/processing/v1/auth/test', { token: processing.token })).status).toBe(429);

    // Other accounts are unaffected.
    const other = await createMerchant(harness.db, { plan: 'standard' });
    expect((await authTest(harness, other.token)).status).toBe(200);
  });

  it('Premium: the 151st request still passes; the limit shown is 750', async () => {
    const merchant = await createMerchant(harness.db, { plan: 'premium' });
    const answers = await burst(151, () => authTest(harness, merchant.token));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers[0]!.headers.get('ratelimit-limit')).toBe('750');
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('750;w=60, 2500;w=300');
  });

  describe('across API servers', () => {
    const secondDb = createPrismaClient(process.env.TEST_DATABASE_URL!, 4);
    const servers: RunningApi[] = [];
    const serve = async (redisUrl?: string) => {
      const config = { ...harness.config, REDIS_URL: redisUrl };
      const api = await startApi(
        {
          db: secondDb,
          temporal: harness.temporal,
          config,
          logger: createLogger('silent'),
          taskQueue: harness.taskQueue,
          sandboxUrl: harness.sandboxUrl,
        },
        0,
        '127.0.0.1',
      );
      servers.push(api);
      return api;
    };
    afterAll(async () => {
      for (const server of servers) await server.stop();
      await closeRateLimitConnections();
      await secondDb.$disconnect();
    });

    it('without REDIS_URL each process counts on its own', async () => {
      const [a, b] = [await serve(), await serve()];
      const merchant = await createMerchant(harness.db, { plan: 'standard' });
      const answers = await burst(200, (i) => authTest(i % 2 ? a : b, merchant.token));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
    });

    // Needs Redis (TEST_REDIS_URL, else 127.0.0.1:6379); skipped with the reason when none answers.
    withRedis('with REDIS_URL the counters are shared: 150 in total across two servers, then 429', async () => {
      const redisUrl = testRedisUrl();
      const [a, b] = [await serve(redisUrl), await serve(redisUrl)];
      const merchant = await createMerchant(harness.db, { plan: 'standard' });
      const answers = await burst(150, (i) => authTest(i % 2 ? a : b, merchant.token));
      expect(answers.map((answer) => answer.status)).toEqual(Array(150).fill(200));
      for (const server of [a, b]) {
        const refused = await authTest(server, merchant.token);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      }
    });
  });
});
