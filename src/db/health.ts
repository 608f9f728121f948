import type { Db } from './prisma';

/** One round trip to the database: resolves when it answers, throws when it cannot be reached. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}
