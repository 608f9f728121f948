import pg from 'pg';
import { createPrismaClient, Prisma, type Db } from '../../../src/db/prisma';
import { rawRows } from '../../../src/db/rawRows';
import { runCommand } from '../../helpers/runCommand';
import { until } from '../../helpers/until';

/**
 * The hottest statements skip Prisma's runtime (src/db/rawRows.ts): they must answer exactly what
 * `$queryRaw` answers for the same SQL, take parameters as Prisma sends them, stay inside a
 * transaction when given one, and really leave through node-postgres on the client's own pool.
 */
describe('rawRows: hot statements on the pool, typed as $queryRaw types them', () => {
  let db: Db;
  beforeAll(() => {
    db = createPrismaClient(process.env.TEST_DATABASE_URL!, 2);
  });
  afterAll(() => db.$disconnect());

  const typed = (at: Date, big: bigint) => Prisma.sql`
    SELECT 7::int AS small, ${big}::int8 AS big, 2.5::float8 AS float, 12.345::numeric(10, 3) AS exact,
           true AS yes, 'text'::text AS words, NULL::text AS nothing,
           jsonb_build_object('a', 1, 'b', jsonb_build_array('x', NULL)) AS object,
           ${at}::timestamp AS at, (${at}::timestamp AT TIME ZONE 'UTC') AS "atZoned",
           '2026-02-03'::date AS day, ARRAY['p', 'q']::text[] AS list, ARRAY[1, 2]::int[] AS numbers,
           ${['one', 'two']}::text[] AS "listParameter", ${null}::text AS "nullParameter"`;

  it('answers the same rows as $queryRaw for every column type the engine reads', async () => {
    const at = new Date('2026-11-29T13:14:15.678Z');
    const viaPrisma = await db.$queryRaw<Record<string, unknown>[]>(typed(at, 9007199254740993n));
    const direct = await rawRows<Record<string, unknown>>(db)`${typed(at, 9007199254740993n)}`;
    expect(direct).toEqual(viaPrisma);
    expect(direct[0]).toMatchObject({ big: 9007199254740993n, at, atZoned: at, nothing: null, nullParameter: null });
    expect(String(direct[0]!.exact)).toBe('12.345');
  });

  it('writes and reads instants as UTC, as Prisma does, in a process whose local zone is not UTC', async () => {
    // A process of its own: the local zone is fixed when Node starts.
    const script = [
      "const { createPrismaClient } = require('./src/db/prisma');",
      "const { rawRows } = require('./src/db/rawRows');",
      '(async () => {',
      '  const db = createPrismaClient(process.env.TEST_DATABASE_URL, 1);',
      "  const at = new Date('2026-06-01T00:30:00.000Z');",
      "  const [row] = await rawRows(db)`SELECT to_char(${at}::timestamp, 'YYYY-MM-DD HH24:MI') AS text, ${at}::timestamp AS back`;",
      '  console.log(JSON.stringify({ hours: at.getHours(), text: row.text, back: row.back.toISOString() }));',
      '  await db.$disconnect();',
      '})();',
    ].join('\n');
    const run = await runCommand('node', ['--import', 'tsx', '-e', script], { TZ: 'America/New_York' });
    expect(run.stderr).toBe('');
    // hours 20: the zone took effect, so node-postgres' own formatting and parsing would be 4 hours off.
    expect(JSON.parse(run.stdout)).toEqual({ hours: 20, text: '2026-06-01 00:30', back: '2026-06-01T00:30:00.000Z' });
  });

  it('leaves through node-postgres as a named statement (no Prisma query runtime)', async () => {
    const names: string[] = [];
    const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as { name?: string } | string;
      if (typeof config === 'object' && config.name) names.push(config.name);
      return original.apply(this, args);
    } as typeof pg.Client.prototype.query;
    try {
      await rawRows(db)`SELECT ${1}::int AS one`;
    } finally {
      pg.Client.prototype.query = original as typeof pg.Client.prototype.query;
    }
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^r_/);
  });

  it('runs inside a transaction it is given (sees the transaction’s own uncommitted write)', async () => {
    const table = `raw_rows_${Date.now()}`;
    await db.$executeRawUnsafe(`CREATE TABLE ${table} (id text PRIMARY KEY)`);
    try {
      const seen = await db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`INSERT INTO ${table} VALUES ('in-tx')`);
        const rows = await rawRows<{ n: bigint }>(tx)`SELECT count(*) AS n FROM ${Prisma.raw(table)}`;
        return rows[0]!.n;
      });
      expect(seen).toBe(1n);
    } finally {
      await db.$executeRawUnsafe(`DROP TABLE ${table}`);
    }
  });

  it('an idle connection killed under the pool does not end the process; the next statement reconnects', async () => {
    const own = createPrismaClient(process.env.TEST_DATABASE_URL!, 2);
    try {
      const [before] = await rawRows<{ pid: number }>(own)`SELECT pg_backend_pid() AS pid`;
      const pid = before!.pid;
      // As when Postgres restarts: the server ends the pool's idle connection.
      await db.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
      // Gone from the server: its goodbye has been sent to the pool's idle connection.
      await until(async () => {
        const [left] = await db.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ${pid}::int`;
        return left!.n === 0 ? true : undefined;
      });
      const [after] = await rawRows<{ pid: number }>(own)`SELECT pg_backend_pid() AS pid`;
      expect(after!.pid).not.toBe(pid);
    } finally {
      await own.$disconnect();
    }
  });
});
