import type { Db } from '../db/prisma';
import { randomBase62 } from '../domain/ids';
import type { Logger } from '../logging/logger';

export interface OwnerLeaseOptions {
  /** How often the heartbeat is refreshed while the process holds records (default 1 s). */
  beatMs?: number;
  logger?: Pick<Logger, 'warn'>;
}

/**
 * This API process's claim on the in-progress idempotency records it runs. While it holds any, it
 * refreshes one heartbeat row (`idempotency_owners`, database clock) every `beatMs`: one UPDATE per
 * process, however many requests are in flight. A record whose owner stopped beating (killed,
 * frozen, cut off from the database) is taken over by a retry within seconds, not a minute.
 * Idle, it writes nothing.
 */
export class IdempotencyOwnerLease {
  readonly ownerId = `apiproc_${randomBase62(20)}`;
  private readonly beatMs: number;
  private holders = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastBeatAt = 0;
  private beating: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly options: OwnerLeaseOptions = {},
  ) {
    this.beatMs = options.beatMs ?? 1_000;
  }

  /** Before claiming a record: the heartbeat is fresh now and is kept fresh until `release`. */
  async hold(): Promise<void> {
    this.holders++;
    if (!this.timer) {
      this.timer = setInterval(() => {
        this.beat().catch((error: unknown) =>
          this.options.logger?.warn({ err: error }, 'idempotency heartbeat failed'),
        );
      }, this.beatMs);
      this.timer.unref();
    }
    try {
      if (Date.now() - this.lastBeatAt > this.beatMs) await this.beat();
    } catch (error) {
      this.release();
      throw error;
    }
  }

  release(): void {
    this.holders = Math.max(0, this.holders - 1);
    if (this.holders === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private beat(): Promise<void> {
    this.beating ??= (async () => {
      const startedAt = Date.now();
      // UTC like every Prisma DateTime column; the database clock, so API hosts' clocks never matter.
      await this.db.$executeRaw`
        INSERT INTO "idempotency_owners" ("id", "heartbeat_at") VALUES (${this.ownerId}, now() AT TIME ZONE 'UTC')
        ON CONFLICT ("id") DO UPDATE SET "heartbeat_at" = EXCLUDED."heartbeat_at"`;
      this.lastBeatAt = startedAt;
    })().finally(() => {
      this.beating = undefined;
    });
    return this.beating;
  }
}
