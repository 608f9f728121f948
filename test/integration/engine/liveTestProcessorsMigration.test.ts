import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { applyMigrations, migrationsDir } from '../../../src/db/migrate';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../../helpers/throwawayDatabase';

const migration = '20261128120000_disable_live_test_only_processors';

/**
 * The migration that disables live processors of the test-only types (the sandbox simulators),
 * run on a database that holds such rows: it disables them, says how many in a notice, and
 * deletes nothing; test rows and live rows of real types are left as they were.
 */
describe(`migration ${migration} on existing processors`, () => {
  let database: ThrowawayDatabase;
  let dir: string;
  let client: pg.Client;

  beforeAll(async () => {
    database = await createThrowawayDatabase(process.env.TEST_DATABASE_URL!);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'live-test-processors-migration-'));
    for (const name of fs.readdirSync(migrationsDir)) {
      if (fs.statSync(path.join(migrationsDir, name)).isDirectory() && name < migration)
        fs.cpSync(path.join(migrationsDir, name), path.join(dir, name), { recursive: true });
    }
    await applyMigrations(database.url, dir);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const insertProcessor = (id: string, mode: 'test' | 'live', type: string, enabled = true) =>
    client.query(
      `INSERT INTO processors (id, account_id, mode, name, type, encrypted_credentials, supported_currencies, base_currency, enabled)
       VALUES ($1, 'acc_one', $2, $1, $3, 'sealed', '{EUR}', 'EUR', $4)`,
      [id, mode, type, enabled],
    );

  it('disables live sandbox rows, reports the count and deletes nothing', async () => {
    await insertProcessor('proc_live_sandbox', 'live', 'sandbox');
    await insertProcessor('proc_live_hosted', 'live', 'sandbox_hosted3ds');
    await insertProcessor('proc_live_off', 'live', 'sandbox', false);
    await insertProcessor('proc_live_stripe', 'live', 'stripe');
    await insertProcessor('proc_test_sandbox', 'test', 'sandbox');

    const notices: string[] = [];
    client.on('notice', (notice) => notices.push(notice.message ?? ''));
    await client.query(fs.readFileSync(path.join(migrationsDir, migration, 'migration.sql'), 'utf8'));

    const rows = await client.query<{ id: string; enabled: boolean }>('SELECT id, enabled FROM processors ORDER BY id');
    expect(rows.rows).toEqual([
      { id: 'proc_live_hosted', enabled: false },
      { id: 'proc_live_off', enabled: false },
      { id: 'proc_live_sandbox', enabled: false },
      { id: 'proc_live_stripe', enabled: true },
      { id: 'proc_test_sandbox', enabled: true },
    ]);
    expect(notices).toEqual(['disabled 2 live processor(s) of a test-only type (sandbox, sandbox_hosted3ds)']);
  });

  it('is applied by the migration runner', async () => {
    fs.cpSync(path.join(migrationsDir, migration), path.join(dir, migration), { recursive: true });
    expect(await applyMigrations(database.url, dir)).toEqual([migration]);
  });
});
