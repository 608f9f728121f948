import { MemoryStore, type Store } from 'express-rate-limit';
import { Redis } from 'ioredis';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { WindowCounter } from '../../portal/loginLimits';

/** One Redis connection per URL per process, shared by every limiter of every app in it. */
const redisClients = new Map<string, Redis>();

function redisClient(url: string): Redis {
  let client = redisClients.get(url);
  if (!client) {
    client = new Redis(url, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
    // Errors surface through the store (and are logged there); this keeps ioredis from crashing the process.
    client.on('error', () => undefined);
    redisClients.set(url, client);
  }
  return client;
}

/** A counter store: Redis when a URL is given (counts shared by all API processes), else in-process. */
export function createCounterStore(redisUrl: string | undefined, prefix: string): Store {
  if (!redisUrl) return new MemoryStore();
  const client = redisClient(redisUrl);
  return new RedisStore({
    prefix,
    sendCommand: (command: string, ...args: string[]) => client.call(command, ...args) as Promise<RedisReply>,
  });
}

/** Closes the shared Redis connections (shutdown, tests). */
export async function closeRateLimitConnections(): Promise<void> {
  const clients = [...redisClients.values()];
  redisClients.clear();
  await Promise.all(clients.map((client) => client.quit().catch(() => client.disconnect())));
}

/**
 * A fixed-window hit counter over the same stores (Redis when a URL is given, else in-process):
 * each `hit` counts one attempt under `key` and answers the count in the current window.
 */
export function createWindowCounter(redisUrl: string | undefined, prefix: string, windowMs: number): WindowCounter {
  const store = createCounterStore(redisUrl, prefix);
  // Both stores only read windowMs from the limiter options they are initialised with.
  const ready = Promise.resolve(store.init?.({ windowMs } as Parameters<NonNullable<Store['init']>>[0]));
  return {
    hit: async (key) => {
      await ready;
      const { totalHits, resetTime } = await store.increment(key);
      return { used: totalHits, resetTime };
    },
  };
}
