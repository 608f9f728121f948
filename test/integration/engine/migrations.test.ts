import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { applyMigrations, MigrationError, migrationsDir } from '../../../src/db/migrate';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../../helpers/throwawayDatabase';

async function rows<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

function writeMigration(dir: string, name: string, sql: string): void {
  fs.mkdirSync(path.join(dir, name), { recursive: true });
  fs.writeFileSync(path.join(dir, name, 'migration.sql'), sql);
}

describe('migration runner (src/db/migrate.ts)', () => {
  const databaseUrl = process.env.TEST_DATABASE_URL!;

  it('applies nothing when run again on a migrated database', async () => {
    expect(await applyMigrations(databaseUrl)).toEqual([]);
  });

  it("records Prisma's checksum: the SHA-256 of the migration.sql bytes, 64 lowercase hex digits", async () => {
    const recorded = await rows<{ migration_name: string; checksum: string }>(
      databaseUrl,
      'SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name',
    );
    const names = fs
      .readdirSync(migrationsDir)
      .filter((name) => fs.statSync(path.join(migrationsDir, name)).isDirectory())
      .sort();
    expect(recorded.map((row) => row.migration_name)).toEqual(names);
    for (const row of recorded) {
      const bytes = fs.readFileSync(path.join(migrationsDir, row.migration_name, 'migration.sql'));
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.checksum).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });

  describe('on a throwaway database with migrations of its own', () => {
    let database: ThrowawayDatabase;
    let dir: string;
    beforeEach(async () => {
      database = await createThrowawayDatabase(databaseUrl);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
    });
    afterEach(async () => {
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('applies pending ones in name order, then none', async () => {
      writeMigration(dir, '20260101000100_second', 'ALTER TABLE probe ADD COLUMN note TEXT;\n');
      writeMigration(dir, '20260101000000_first', 'CREATE TABLE probe (id INT PRIMARY KEY);\n');
      expect(await applyMigrations(database.url, dir)).toEqual(['20260101000000_first', '20260101000100_second']);
      expect(await applyMigrations(database.url, dir)).toEqual([]);
      expect(
        await rows(database.url, 'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL'),
      ).toHaveLength(2);
    });

    it('refuses a migration edited after it was applied, and applies nothing after it', async () => {
      writeMigration(dir, '20260101000000_first', 'CREATE TABLE probe (id INT PRIMARY KEY);\n');
      await applyMigrations(database.url, dir);
      writeMigration(dir, '20260101000000_first', 'CREATE TABLE probe (id BIGINT PRIMARY KEY);\n');
      writeMigration(dir, '20260101000100_second', 'CREATE TABLE later (id INT);\n');
      await expect(applyMigrations(database.url, dir)).rejects.toThrow(MigrationError);
      await expect(applyMigrations(database.url, dir)).rejects.toThrow(
        'migration 20260101000000_first was modified after it was applied',
      );
      expect(await rows(database.url, `SELECT 1 FROM information_schema.tables WHERE table_name = 'later'`)).toEqual(
        [],
      );
    });

    it('rolls back a failing migration whole and records it as not applied', async () => {
      writeMigration(dir, '20260101000000_broken', 'CREATE TABLE half (id INT);\nSELECT no_such_function();\n');
      await expect(applyMigrations(database.url, dir)).rejects.toThrow(/migration 20260101000000_broken failed/);
      expect(await rows(database.url, `SELECT 1 FROM information_schema.tables WHERE table_name = 'half'`)).toEqual([]);
      expect(await rows(database.url, 'SELECT 1 FROM "_prisma_migrations"')).toEqual([]);
    });
  });
});
