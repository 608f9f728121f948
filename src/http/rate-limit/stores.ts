import { MemoryStore, type Store } from 'express-rate-limit';
import { Redis } from 'ioredis';
import { RedisStore, type RedisReply } from 'rate-limit-redis';

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
