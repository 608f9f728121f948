import type { Db } from '../../src/db/prisma';
import { until } from '../helpers/until';
import { LastUsedRecorder } from '../../src/keys/lastUsed';
import { createLogger } from '../../src/logging/logger';

/** A stand-in for Prisma's tagged-template `$executeRaw` that records the bound values. */
function fakeDb(fail = false) {
  const statements: { sql: string; values: unknown[] }[] = [];
  const db = {
    $executeRaw: async (strings: TemplateStringsArray, ...values: unknown[]) => {
      statements.push({ sql: strings.join('?'), values });
      if (fail) throw new Error('database down');
      return 1;
    },
  };
  return { db: db as unknown as Db, statements };
}

describe('LastUsedRecorder', () => {
  it('writes nothing on the request path, then every key seen in one statement with its latest time', async () => {
    const { db, statements } = fakeDb();
    const recorder = new LastUsedRecorder(db, createLogger('silent'), 60_000);
    recorder.touch('key_a', new Date('2026-01-01T00:00:01Z'));
    recorder.touch('key_b', new Date('2026-01-01T00:00:02Z'));
    recorder.touch('key_a', new Date('2026-01-01T00:00:03Z'));
    expect(statements).toHaveLength(0);
    await recorder.flush();
    expect(statements).toHaveLength(1);
    expect(statements[0]!.sql).toMatch(/UPDATE "api_keys"/);
    expect(statements[0]!.values).toEqual([
      ['key_a', 'key_b'],
      ['2026-01-01T00:00:03.000Z', '2026-01-01T00:00:02.000Z'],
    ]);
    await recorder.flush();
    expect(statements).toHaveLength(1);
  });

  it('flushes by itself after the interval', async () => {
    const { db, statements } = fakeDb();
    const recorder = new LastUsedRecorder(db, createLogger('silent'), 20);
    recorder.touch('key_c');
    await until(() => (statements.length > 0 ? true : undefined), 5_000);
    expect(statements).toHaveLength(1);
    expect(statements[0]!.values[0]).toEqual(['key_c']);
  });

  it('survives a failed write (lastUsedAt is best effort, never an error for the caller)', async () => {
    const { db, statements } = fakeDb(true);
    const recorder = new LastUsedRecorder(db, createLogger('silent'), 60_000);
    recorder.touch('key_d');
    await expect(recorder.flush()).resolves.toBeUndefined();
    expect(statements).toHaveLength(1);
  });
});
