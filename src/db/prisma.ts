import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Db = PrismaClient;
export { Prisma } from '../generated/prisma/client';

/** A Prisma client over node-postgres (Prisma 7's driver adapter: no native engine needed). */
export function createPrismaClient(databaseUrl: string, poolSize = 20): PrismaClient {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: poolSize });
  return new PrismaClient({ adapter });
}
