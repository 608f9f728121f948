import { memoryLimitDefaults } from '../config';
import type { Db } from '../db/prisma';
import type { Logger } from '../logging/logger';

/**
 * Records `lastUsedAt` off the request path: each authenticated call notes its key and time, and
 * one UPDATE per flush interval writes every key seen since the last flush. A key used many times
 * in one interval is written once, with its latest time. Writes never move the time backwards, so
 * several API processes may flush in any order. Memory is bounded by time (one interval,
 * LAST_USED_FLUSH_MS) and by size: reaching `maxPendingKeys` distinct keys flushes at once.
 */
export class LastUsedRecorder {
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly flushAfterMs: number = memoryLimitDefaults.LAST_USED_FLUSH_MS,
    private readonly maxPendingKeys: number = memoryLimitDefaults.LAST_USED_MAX_PENDING_KEYS,
  ) {}

  /** Keys noted since the last flush. */
  get pendingKeys(): number {
    return this.pending.size;
  }

  touch(keyId: string, at: Date = new Date()): void {
    this.pending.set(keyId, at);
    if (this.pending.size >= this.maxPendingKeys) {
      void this.flush();
      return;
    }
    // Unref'd: a pending write never keeps a process alive on shutdown.
    this.timer ??= setTimeout(() => void this.flush(), this.flushAfterMs).unref();
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const batch = [...this.pending];
    this.pending = new Map();
    const ids = batch.map(([id]) => id);
    const times = batch.map(([, at]) => at.toISOString());
    try {
      await this.db.$executeRaw`
        UPDATE "api_keys" AS k
        SET "last_used_at" = v.at AT TIME ZONE 'UTC'
        FROM unnest(${ids}::text[], ${times}::timestamptz[]) AS v(id, at)
        WHERE k."id" = v.id AND (k."last_used_at" IS NULL OR k."last_used_at" < v.at AT TIME ZONE 'UTC')`;
    } catch (error) {
      this.logger.warn({ err: error, keys: ids.length }, 'could not record API key lastUsedAt');
    }
  }
}
