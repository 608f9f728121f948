import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client';
import { preparedStatementName, registerRawPool } from './rawRows';

export type Db = PrismaClient;
export { Prisma } from '../generated/prisma/client';

/**
 * A Prisma client over node-postgres (Prisma 7's driver adapter: no native engine needed). Each
 * distinct SQL text becomes a named prepared statement, parsed and planned once per connection
 * instead of on every call: the engine sends the same few dozen statements per payment. The
 * name is a hash of the text, so the same text always maps to the same name.
 */
export function createPrismaClient(databaseUrl: string, poolSize = 20): PrismaClient {
  // The pool is ours, handed to the adapter, so the hottest statements can use it directly (rawRows).
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // An idle connection that dies (Postgres restarted, a connection killed) is dropped by the pool and
  // the next statement opens a new one; without a listener the pool's 'error' event would end the process.
  pool.on('error', () => undefined);
  const adapter = new PrismaPg(pool, { statementNameGenerator: ({ sql }) => preparedStatementName('s', sql) });
  const client = new PrismaClient({ adapter });
  registerRawPool(client, pool);
  // The adapter leaves a pool it was given open (and never saw it when only rawRows ran).
  const disconnect = client.$disconnect.bind(client);
  client.$disconnect = async () => {
    await disconnect();
    if (!pool.ending) await pool.end();
  };
  return client;
}
