import type { Db } from '../../src/db/prisma';
import { until } from './until';

type Queryable = Pick<Db, '$queryRaw'>;

/** The Postgres backend a transaction runs on (call it with the transaction's client). */
export async function backendPid(tx: Queryable): Promise<number> {
  const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS "pid"`;
  return row!.pid;
}

/**
 * Waits until some statement is blocked by a lock that backend `holderPid` holds: the positive
 * marker that a concurrent statement reached the lock and waits on it (instead of a fixed sleep).
 */
export async function untilBlockedBy(db: Queryable, holderPid: number, timeoutMs = 20_000): Promise<void> {
  await until(async () => {
    const [row] = await db.$queryRaw<{ blocked: bigint }[]>`
      SELECT count(*) AS "blocked" FROM pg_stat_activity WHERE ${holderPid}::int = ANY(pg_blocking_pids("pid"))`;
    return row!.blocked > 0n ? true : undefined;
  }, timeoutMs);
}
