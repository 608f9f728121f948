import { createHash } from 'node:crypto';
import pg from 'pg';
import { Prisma } from '../generated/prisma/client';

/**
 * The engine's hottest statements (a few per payment, each already one round trip of hand-written
 * SQL) skip Prisma's query runtime and go to node-postgres on the same pool. Prisma's runtime costs
 * about 0.1 ms of CPU per statement on top of node-postgres (building the plan, mapping arguments
 * and rows, its async-context tracking), which per payment was a sizeable share of the engine's
 * own CPU. Rows come back typed as `$queryRaw` types them (a test holds the two to the same answer).
 */

/** The pool a client made by `createPrismaClient` runs on; a transaction client has none. */
const pools = new WeakMap<object, pg.Pool>();

export function registerRawPool(client: object, pool: pg.Pool): void {
  pools.set(client, pool);
}

/**
 * `db.$queryRaw` for one statement: as a tagged template (Prisma.sql fragments may be nested), on
 * the client's pool as a named prepared statement. On a transaction client it runs through Prisma,
 * so it stays inside the transaction.
 */
export function rawRows<Row>(db: object) {
  return (strings: TemplateStringsArray, ...values: unknown[]): Promise<Row[]> => {
    const statement = Prisma.sql(strings, ...(values as Prisma.Sql[]));
    const pool = pools.get(db);
    if (!pool) return (db as { $queryRaw<T>(query: Prisma.Sql): Promise<T> }).$queryRaw<Row[]>(statement);
    return pool
      .query<Row & pg.QueryResultRow>({
        name: preparedStatementName('r', statement.text),
        text: statement.text,
        values: statement.values.map(toParameter),
        types,
      })
      .then((result) => result.rows);
  };
}

/** As Prisma sends them: instants in UTC (node-postgres would write local time), bigints as digits. */
function toParameter(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Prisma.Decimal) return value.toString();
  return value;
}

const oids = { int8: 20, numeric: 1700, timestamp: 1114, date: 1082 } as const;

/** `$queryRaw`'s types where node-postgres differs: int8 as bigint, numeric as Decimal, UTC timestamps. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case oids.int8:
        return (text: string) => BigInt(text);
      case oids.numeric:
        return (text: string) => new Prisma.Decimal(text);
      case oids.timestamp:
        // Stored in UTC without a zone (as Prisma writes them); node-postgres would read local time.
        return (text: string) => new Date(`${text.replace(' ', 'T')}Z`);
      case oids.date:
        return (text: string) => new Date(`${text}T00:00:00Z`);
      default:
        return pg.types.getTypeParser(oid, format as 'text');
    }
  },
};

const names = new Map<string, string>();

/**
 * The name of a SQL text's prepared statement: a hash of the text, so one text always maps to one
 * name; `prefix` keeps Prisma's (`s`) and rawRows' (`r`) apart.
 */
export function preparedStatementName(prefix: 'r' | 's', text: string): string {
  const key = `${prefix}${text}`;
  let name = names.get(key);
  if (!name) {
    name = `${prefix}_${createHash('sha1').update(text).digest('base64url')}`;
    if (names.size >= 5_000) names.clear();
    names.set(key, name);
  }
  return name;
}
