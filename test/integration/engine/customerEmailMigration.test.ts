import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { applyMigrations, migrationsDir } from '../../../src/db/migrate';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../../helpers/throwawayDatabase';

const uniqueEmailMigration = '20261125020000_customer_email_unique_key_last4';

/**
 * The migration that makes customers unique per (account, mode, store, lower-cased e-mail) on a
 * database that already holds customers: it lower-cases e-mails, and stops (rolled back whole)
 * when that leaves duplicates, naming them, instead of merging customers on its own.
 */
describe(`migration ${uniqueEmailMigration} on existing customers`, () => {
  let database: ThrowawayDatabase;
  let dir: string;
  let client: pg.Client;

  const copyMigrations = (until: (name: string) => boolean) => {
    for (const name of fs
      .readdirSync(migrationsDir)
      .filter((entry) => fs.statSync(path.join(migrationsDir, entry)).isDirectory() && until(entry))) {
      fs.cpSync(path.join(migrationsDir, name), path.join(dir, name), { recursive: true });
    }
  };
  const insertCustomer = (id: string, email: string, storeId: string | null = null, accountId = 'acc_one') =>
    client.query(`INSERT INTO customers (id, account_id, mode, store_id, email) VALUES ($1, $2, 'test', $3, $4)`, [
      id,
      accountId,
      storeId,
      email,
    ]);
  const emails = async () =>
    (await client.query<{ id: string; email: string }>('SELECT id, email FROM customers ORDER BY id')).rows;

  beforeEach(async () => {
    database = await createThrowawayDatabase(process.env.TEST_DATABASE_URL!);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'customer-email-migration-'));
    copyMigrations((name) => name < uniqueEmailMigration);
    await applyMigrations(database.url, dir);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(
      `INSERT INTO stores (id, account_id, mode, name, base_currency, presentment_currencies) VALUES ('store_a', 'acc_one', 'test', 'A', 'EUR', '{EUR}')`,
    );
    copyMigrations((name) => name === uniqueEmailMigration);
  });
  afterEach(async () => {
    await client?.end();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lower-cases e-mails when no two customers then collide', async () => {
    await insertCustomer('cus_1', 'Ada@Example.COM');
    await insertCustomer('cus_2', 'ada@example.com', 'store_a');
    await insertCustomer('cus_3', 'ADA@example.com', null, 'acc_two');
    expect(await applyMigrations(database.url, dir)).toEqual([uniqueEmailMigration]);
    expect(await emails()).toEqual([
      { id: 'cus_1', email: 'ada@example.com' },
      { id: 'cus_2', email: 'ada@example.com' },
      { id: 'cus_3', email: 'ada@example.com' },
    ]);
  });

  it('stops with a message naming the duplicates (also of store-less customers), and changes nothing', async () => {
    await insertCustomer('cus_1', 'Ada@Example.com');
    await insertCustomer('cus_2', 'ada@example.com');
    await insertCustomer('cus_3', 'grace@example.com', 'store_a');
    await insertCustomer('cus_4', 'GRACE@example.com', 'store_a');
    await insertCustomer('cus_5', 'Lin@example.com', 'store_a');
    const failure = applyMigrations(database.url, dir);
    await expect(failure).rejects.toThrow(
      /customers: 2 group\(s\) of customers share \(account, mode, store, lower-cased e-mail\)/,
    );
    await expect(failure).rejects.toThrow(/\[cus_1, cus_2\]/);
    await expect(failure).rejects.toThrow(/\[cus_3, cus_4\]/);
    expect((await emails()).map((row) => row.email)).toEqual([
      'Ada@Example.com',
      'ada@example.com',
      'grace@example.com',
      'GRACE@example.com',
      'Lin@example.com',
    ]);
    const applied = await client.query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1`, [
      uniqueEmailMigration,
    ]);
    expect(applied.rows).toEqual([]);
  });
});
