import { Redis } from 'ioredis';

/**
 * Redis for the shared rate-limit tests: TEST_REDIS_URL, else 127.0.0.1:6379 (`.ci/run` starts a
 * redis-server there when one is installed). The integration set-up asks it once
 * (`probeTestRedis`) and leaves the reason to skip in TEST_REDIS_SKIP_REASON; `withRedis` then
 * skips those tests, saying why, instead of failing a machine that has no Redis.
 */
export const testRedisUrl = () => process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Why the Redis tests cannot run here, or undefined when Redis answers PING. */
export async function probeTestRedis(): Promise<string | undefined> {
  if (process.env.SKIP_REDIS_TESTS === '1') return 'SKIP_REDIS_TESTS=1';
  const url = testRedisUrl();
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2_000,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG' ? undefined : `Redis at ${url} did not answer PING`;
  } catch (error) {
    return `no Redis answers at ${url} (${error instanceof Error ? error.message : String(error)}); start one or set TEST_REDIS_URL`;
  } finally {
    probe.disconnect();
  }
}

/** `it` when Redis answered the set-up's probe; else a skipped test whose name says why (and a warning). */
export function withRedis(name: string, test: () => Promise<void>, timeoutMs?: number): void {
  const reason = process.env.TEST_REDIS_SKIP_REASON;
  if (reason) {
    process.stderr.write(`skipped "${name}": ${reason}\n`);
    it.skip(`${name} [skipped: ${reason}]`, test);
    return;
  }
  it(name, test, timeoutMs);
}
