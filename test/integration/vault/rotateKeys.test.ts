import { createCipheriv, randomBytes } from 'node:crypto';
import { applyMigrations } from '../../../src/db/migrate';
import { createPrismaClient, type Db } from '../../../src/db/prisma';
import { openProcessorCredentials, sealProcessorCredentials } from '../../../src/processors/credentials';
import { decryptPan, encryptPan, panFingerprint } from '../../../src/vault/cardVault';
import { keyring } from '../../../src/vault/keyring';
import { rotateKeys, rotators } from '../../../src/vault/rotateKeys';
import { openEndpointSecret, sealEndpointSecret } from '../../../src/webhooks/endpointSecrets';
import { runCommand } from '../../helpers/runCommand';
import { createThrowawayDatabase, type ThrowawayDatabase } from '../../helpers/throwawayDatabase';

const hexKey = () => randomBytes(32).toString('hex');
const oldKey = hexKey();
const newKey = hexKey();
const DATA_DIR = '/nonexistent';
/** Before the rotation: the old key is current. */
const before = { ENCRYPTION_KEY: oldKey, DATA_DIR };
/** The operator's change: a new current key, the old one kept readable. */
const during = { ENCRYPTION_KEY: newKey, ENCRYPTION_KEYS_PREVIOUS: [oldKey], DATA_DIR };
/** After rotate-keys: the old key is gone. */
const after = { ENCRYPTION_KEY: newKey, DATA_DIR };
const newPrefix = `v2:${keyring(after).current.id}:`;

/** A card blob as the engine wrote them before key ids: `v1:`, the master key itself, no associated data. */
function legacyCardBlob(pan: string, masterHex: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(masterHex, 'hex'), iv);
  const ciphertext = Buffer.concat([cipher.update(pan, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64')))
    .join(':');
}

/** Processor credentials as written before key ids: `sb1:`, the master key itself, the purpose as associated data. */
function legacyCredentialsBlob(credentials: object, masterHex: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(masterHex, 'hex'), iv);
  cipher.setAAD(Buffer.from('processor-credentials', 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  return ['sb1', iv, cipher.getAuthTag(), ciphertext]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64')))
    .join(':');
}

const pans = ['4242424242424242', '5555555555554444', '4000056655665556', '378282246310005', '6011111111111117'];

describe('admin rotate-keys: every secret at rest moves to the current master key', () => {
  let database: ThrowawayDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createThrowawayDatabase(process.env.TEST_DATABASE_URL!);
    await applyMigrations(database.url);
    db = createPrismaClient(database.url, 2);
  });
  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  /** Five cards under the old key plus one legacy card, two processors, two endpoints (one from before sealing). */
  async function seed() {
    await db.$executeRawUnsafe(
      'TRUNCATE payment_instruments, customers, processors, webhook_delivery_attempts, webhook_endpoints CASCADE',
    );
    await db.customer.create({ data: { id: 'cus_1', accountId: 'acc_1', mode: 'test', email: 'a@example.com' } });
    const card = (id: string, pan: string, encryptedPan: string) =>
      db.paymentInstrument.create({
        data: {
          id,
          accountId: 'acc_1',
          mode: 'test',
          customerId: 'cus_1',
          brand: 'visa',
          last4: pan.slice(-4),
          bin: pan.slice(0, 6),
          expMonth: 12,
          expYear: 2035,
          encryptedPan,
          fingerprint: panFingerprint(pan, before),
        },
      });
    for (const [i, pan] of pans.entries()) await card(`pi_${i}`, pan, encryptPan(pan, `pi_${i}`, before));
    await card('pi_legacy', '4111111111111111', legacyCardBlob('4111111111111111', oldKey));
    const processor = (id: string, encryptedCredentials: string) =>
      db.processor.create({
        data: {
          id,
          accountId: 'acc_1',
          mode: 'test',
          name: id,
          type: 'sandbox',
          encryptedCredentials,
          supportedCurrencies: ['USD'],
          baseCurrency: 'USD',
        },
      });
    await processor('proc_a', sealProcessorCredentials({ merchantId: 'm_a' }, 'proc_a', before));
    await processor('proc_legacy', legacyCredentialsBlob({ merchantId: 'm_legacy' }, oldKey));
    const endpoint = (id: string, secret: string, previousSecret: string | null) =>
      db.webhookEndpoint.create({
        data: {
          id,
          accountId: 'acc_1',
          mode: 'test',
          storeId: 'store_1',
          url: 'https://example.com/hook',
          eventTypes: [],
          secret,
          previousSecret,
          previousSecretExpiresAt: previousSecret ? new Date(Date.now() + 60_000) : null,
        },
      });
    await endpoint('wh_plain', 'whsec_current', 'whsec_previous');
    await endpoint('wh_sealed', sealEndpointSecret('whsec_sealed', 'wh_sealed', before), null);
  }

  const cardBlobs = async () =>
    Object.fromEntries(
      (await db.paymentInstrument.findMany({ select: { id: true, encryptedPan: true } })).map((row) => [
        row.id,
        row.encryptedPan,
      ]),
    );

  it('moves blobs under a previous key and legacy blobs to the current key id; the old key is then no longer needed', async () => {
    await seed();
    // Under the new ring, before any rotation, everything still opens: the old key is in ENCRYPTION_KEYS_PREVIOUS.
    const seeded = (await cardBlobs()).pi_0!;
    expect(decryptPan(seeded, 'pi_0', during)).toBe(pans[0]);
    expect(() => decryptPan(seeded, 'pi_0', after)).toThrow(/neither ENCRYPTION_KEY nor/);

    const report = await rotateKeys(db, during, { batchSize: 2 });
    expect(report.keyId).toBe(keyring(after).current.id);
    expect(report.tables).toEqual({
      paymentInstruments: { rotated: 6, changedConcurrently: 0, unreadable: [] },
      processors: { rotated: 2, changedConcurrently: 0, unreadable: [] },
      webhookEndpoints: { rotated: 2, changedConcurrently: 0, unreadable: [] },
    });

    const cards = await db.paymentInstrument.findMany({ orderBy: { id: 'asc' } });
    for (const row of cards) {
      expect(row.encryptedPan.startsWith(newPrefix)).toBe(true);
      const pan = decryptPan(row.encryptedPan, row.id, after);
      // The fingerprint follows the key, so the same card compares equal across rows again.
      expect(row.fingerprint).toBe(panFingerprint(pan, after));
    }
    expect(cards.map((row) => decryptPan(row.encryptedPan, row.id, after))).toEqual([...pans, '4111111111111111']);
    const processors = await db.processor.findMany({ orderBy: { id: 'asc' } });
    expect(processors.map((row) => row.encryptedCredentials.startsWith(newPrefix))).toEqual([true, true]);
    expect(processors.map((row) => openProcessorCredentials(row.encryptedCredentials, row.id, after))).toEqual([
      { merchantId: 'm_a' },
      { merchantId: 'm_legacy' },
    ]);
    const endpoints = await db.webhookEndpoint.findMany({ orderBy: { id: 'asc' } });
    expect(
      endpoints.map((row) => [
        row.secret.slice(0, newPrefix.length),
        row.previousSecret?.slice(0, newPrefix.length) ?? null,
      ]),
    ).toEqual([
      [newPrefix, newPrefix],
      [newPrefix, null],
    ]);
    expect(endpoints.map((row) => openEndpointSecret(row.secret, row.id, after))).toEqual([
      'whsec_current',
      'whsec_sealed',
    ]);
    expect(openEndpointSecret(endpoints[0]!.previousSecret!, 'wh_plain', after)).toBe('whsec_previous');

    // A second run finds nothing to do.
    const again = await rotateKeys(db, after, { batchSize: 2 });
    expect(Object.values(again.tables).map((counts) => counts.rotated)).toEqual([0, 0, 0]);
  });

  it('is resumable: killed after one batch, a second run moves the rest and never touches the rows already moved', async () => {
    await seed();
    const interrupted = rotateKeys(db, during, {
      batchSize: 2,
      onBatch: () => {
        throw new Error('killed');
      },
    });
    await expect(interrupted).rejects.toThrow('killed');
    const afterKill = await cardBlobs();
    const moved = Object.keys(afterKill).filter((id) => afterKill[id]!.startsWith(newPrefix));
    expect(moved).toHaveLength(2);

    const resumed = await rotateKeys(db, during, { batchSize: 2 });
    expect(resumed.tables.paymentInstruments).toEqual({ rotated: 4, changedConcurrently: 0, unreadable: [] });
    const final = await cardBlobs();
    // Sealing draws a fresh IV, so a row processed twice would hold another blob.
    for (const id of moved) expect(final[id]).toBe(afterKill[id]);
    expect(Object.values(final).every((blob) => blob.startsWith(newPrefix))).toBe(true);
  });

  it('never clobbers a concurrent writer, and leaves a blob no configured key opens as it is, naming its row', async () => {
    await seed();
    const stale = await db.processor.findUniqueOrThrow({ where: { id: 'proc_a' } });
    const written = sealProcessorCredentials({ merchantId: 'm_written_meanwhile' }, 'proc_a', during);
    await db.processor.update({ where: { id: 'proc_a' }, data: { encryptedCredentials: written } });
    await expect(rotators.processors.rewrite(db, stale, during)).resolves.toBe('changedConcurrently');
    expect((await db.processor.findUniqueOrThrow({ where: { id: 'proc_a' } })).encryptedCredentials).toBe(written);

    const foreign = sealProcessorCredentials({ merchantId: 'm_x' }, 'proc_legacy', {
      ENCRYPTION_KEY: hexKey(),
      DATA_DIR,
    });
    await db.processor.update({ where: { id: 'proc_legacy' }, data: { encryptedCredentials: foreign } });
    const report = await rotateKeys(db, during);
    expect(report.tables.processors).toEqual({ rotated: 0, changedConcurrently: 0, unreadable: ['proc_legacy'] });
    expect((await db.processor.findUniqueOrThrow({ where: { id: 'proc_legacy' } })).encryptedCredentials).toBe(foreign);
  });

  it('npm run admin -- rotate-keys prints the counts as one JSON document', async () => {
    await seed();
    const run = await runCommand('npm', ['run', '--silent', 'admin', '--', 'rotate-keys', '--batch-size', '4'], {
      DATABASE_URL: database.url,
      ENCRYPTION_KEY: newKey,
      ENCRYPTION_KEYS_PREVIOUS: oldKey,
      LOG_LEVEL: 'warn',
    });
    expect(run.stderr).toContain('rotate-keys: paymentInstruments: 4 rotated');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      keyId: keyring(after).current.id,
      batchSize: 4,
      tables: {
        paymentInstruments: { rotated: 6, changedConcurrently: 0, unreadable: [] },
        processors: { rotated: 2, changedConcurrently: 0, unreadable: [] },
        webhookEndpoints: { rotated: 2, changedConcurrently: 0, unreadable: [] },
      },
    });
  }, 120_000);
});
