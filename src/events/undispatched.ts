import type { Db } from '../db/prisma';

/** Events committed but never dispatched (a crash between commit and dispatch), oldest first. */
export async function undispatchedEventIds(
  db: Db,
  olderThanMs: number,
  limit: number,
  accountId?: string,
): Promise<string[]> {
  const rows = await db.event.findMany({
    where: {
      processedAt: null,
      createdAt: { lt: new Date(Date.now() - olderThanMs) },
      ...(accountId ? { accountId } : {}),
    },
    orderBy: { createdAt: 'asc' },
    take: limit,
    select: { id: true },
  });
  return rows.map((row) => row.id);
}
