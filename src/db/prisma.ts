import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Db = PrismaClient;
export { Prisma } from '../generated/prisma/client';

/**
 * A Prisma client over node-postgres (Prisma 7's driver adapter: no native engine needed). Each
 * distinct SQL text becomes a named prepared statement, parsed and planned once per connection
 * instead of on every call: the engine sends the same few dozen statements per payment. The
 * name is a hash of the text, so the same text always maps to the same name.
 */
export function createPrismaClient(databaseUrl: string, poolSize = 20): PrismaClient {
  const adapter = new PrismaPg(
    { connectionString: databaseUrl, max: poolSize },
    { statementNameGenerator: ({ sql }) => statementName(sql) },
  );
  return new PrismaClient({ adapter });
}

const names = new Map<string, string>();

function statementName(sql: string): string {
  let name = names.get(sql);
  if (!name) {
    name = `s_${createHash('sha1').update(sql).digest('base64url')}`;
    if (names.size >= 5_000) names.clear();
    names.set(sql, name);
  }
  return name;
}
