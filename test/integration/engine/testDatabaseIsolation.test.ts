import pg from 'pg';
import { applyMigrations } from '../../../src/db/migrate';
import { createThrowawayDatabase } from '../../helpers/throwawayDatabase';

async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** A developer's DATABASE_URL is never the database the tests migrate and fill. */
describe('the test run database', () => {
  it('is a payments_test database, and DATABASE_URL in test processes points to it', () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    expect(url.pathname).toMatch(/^\/payments_test/);
    expect(process.env.DATABASE_URL).toBe(process.env.TEST_DATABASE_URL);
  });

  it('with DATABASE_URL set, a throwaway payments_test_<random> database on that server is made, used and dropped', async () => {
    // The run's database stands in for a developer's DATABASE_URL.
    const developers = process.env.TEST_DATABASE_URL!;
    const throwaway = await createThrowawayDatabase(developers);
    const name = new URL(throwaway.url).pathname.slice(1);
    expect(name).toMatch(/^payments_test_[0-9a-f]{12}$/);
    expect(new URL(throwaway.url).host).toBe(new URL(developers).host);

    await applyMigrations(throwaway.url);
    await query(
      throwaway.url,
      `INSERT INTO partners (id, name, kind) VALUES ('par_isolation_probe', 'probe', 'payfac')`,
    );
    expect(await query(developers, `SELECT id FROM partners WHERE id = 'par_isolation_probe'`)).toEqual([]);

    const open = new pg.Client({ connectionString: throwaway.url });
    await open.connect();
    open.on('error', () => undefined); // the drop terminates it
    await throwaway.drop();
    expect(await query(developers, 'SELECT datname FROM pg_database WHERE datname = $1', [name])).toEqual([]);
  });
});
