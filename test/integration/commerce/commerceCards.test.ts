import { createHash, createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { canonical } from '../../../src/idempotency/requestHash';
import { decryptPan, idempotencyHashKey } from '../../../src/vault/cardVault';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { api, createCustomer, createTenants, ok, type Tenants } from './commerceHelpers';

/** A random Visa-range PAN that passes Luhn, so no other test or fixture can hold the same digits. */
function uniquePan(): string {
  const body = `4${Array.from({ length: 14 }, () => Math.floor(Math.random() * 10)).join('')}`;
  for (let check = 0; check <= 9; check++) {
    const candidate = body + check;
    let sum = 0;
    for (let i = 0; i < candidate.length; i++) {
      let digit = Number(candidate[candidate.length - 1 - i]);
      if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      sum += digit;
    }
    if (sum % 10 === 0) return candidate;
  }
  throw new Error('unreachable');
}

const nextYear = new Date().getUTCFullYear() + 1;

describe('payment instruments: tokenized cards over HTTP', () => {
  let harness: Harness;
  let t: Tenants;
  const logged: string[] = [];
  const spies: jest.SpyInstance[] = [];
  const originalWriteSync = fs.writeSync;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'commerce-cards-'));

  beforeAll(async () => {
    // Capture everything pino (sonic-boom, fs.write*) and anything else writes, at the chattiest level.
    const capture = (chunk: unknown) => logged.push(Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
    spies.push(
      jest.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: unknown, ...rest: unknown[]) => {
        if (fd !== 1 && fd !== 2) return (originalWriteSync as (...args: unknown[]) => number)(fd, data, ...rest);
        capture(data);
        return typeof data === 'string' ? Buffer.byteLength(data) : (data as Buffer).length;
      }) as typeof fs.writeSync),
      jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
        capture(chunk);
        return true;
      }),
      jest.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
        capture(chunk);
        return true;
      }),
    );
    harness = await startHarness({ LOG_LEVEL: 'trace', DATA_DIR: dataDir });
    t = await createTenants(harness);
  });
  afterAll(async () => {
    await harness?.stop();
    for (const spy of spies) spy.mockRestore();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('tokenizes a card: brand, last4, BIN, expiry and country, never the PAN or CVC; get, list, update', async () => {
    const customer = await createCustomer(harness, t.merchant.token);
    const instrument = await ok(harness, 'POST', '/payment-instruments', t.merchant.token, {
      customerId: customer.id,
      card: {
        number: '4242 4242 4242 4242',
        expMonth: 12,
        expYear: nextYear,
        cvc: '123',
        cardholderName: 'Ada Lovelace',
      },
    });
    expect(instrument).toMatchObject({
      customerId: customer.id,
      type: 'card',
      brand: 'visa',
      last4: '4242',
      bin: '424242',
      expMonth: 12,
      expYear: nextYear,
      issuingCountry: 'US',
      cardholderName: 'Ada Lovelace',
    });
    expect(instrument.id).toMatch(/^pi_/);
    expect(JSON.stringify(instrument)).not.toContain('4242424242424242');
    for (const secret of ['number', 'pan', 'cardNumber', 'cvc', 'cvv', 'encryptedPan', 'card'])
      expect(instrument).not.toHaveProperty(secret);

    expect(await ok(harness, 'GET', `/payment-instruments/${instrument.id}`, t.merchant.token)).toEqual(instrument);
    const perCustomer = await ok(harness, 'GET', `/customers/${customer.id}/payment-instruments`, t.merchant.token);
    expect(perCustomer.data).toEqual([instrument]);
    const listed = await ok(harness, 'POST', '/payment-instruments/list', t.merchant.token, {
      filters: { customerId: customer.id },
    });
    expect(listed.data.map((row: { id: string }) => row.id)).toEqual([instrument.id]);
    const updated = await ok(harness, 'POST', '/payment-instruments/update', t.merchant.token, {
      id: instrument.id,
      data: { expYear: nextYear + 2, cardholderName: 'A. Lovelace' },
    });
    expect(updated).toMatchObject({ expYear: nextYear + 2, cardholderName: 'A. Lovelace' });

    // holderName stays accepted as an alias on create; two different names are a 400.
    const aliased = await ok(harness, 'POST', '/payment-instruments', t.merchant.token, {
      customerId: customer.id,
      card: { number: '4242424242424242', expMonth: 12, expYear: nextYear, cvc: '123', holderName: 'Grace Hopper' },
    });
    expect(aliased.cardholderName).toBe('Grace Hopper');
    const both = await call(harness, 'POST', `${api}/payment-instruments`, {
      token: t.merchant.token,
      body: {
        customerId: customer.id,
        card: {
          number: '4242424242424242',
          expMonth: 12,
          expYear: nextYear,
          cvc: '123',
          holderName: 'A',
          cardholderName: 'B',
        },
      },
    });
    expect({ status: both.status, code: both.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });

    // What the payments engine reads to charge the card later decrypts to the PAN.
    const row = await harness.db.paymentInstrument.findUniqueOrThrow({ where: { id: instrument.id } });
    expect(decryptPan(row.encryptedPan, row.id, harness.config)).toBe('4242424242424242');
  });

  it('answers 400 for a bad Luhn, a past expiry, a bad CVC or an expiry update into the past', async () => {
    const customer = await createCustomer(harness, t.merchant.token);
    const attempt = (card: Record<string, unknown>) =>
      call(harness, 'POST', `${api}/payment-instruments`, {
        token: t.merchant.token,
        body: { customerId: customer.id, card: { expMonth: 12, expYear: nextYear, cvc: '123', ...card } },
      });
    const luhn = await attempt({ number: '4242424242424241' });
    expect(luhn.status).toBe(400);
    expect(luhn.body.code).toBe('INVALID_CARD_NUMBER');
    const expired = await attempt({ number: '4242424242424242', expMonth: 1, expYear: 2020 });
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('CARD_EXPIRED');
    const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1));
    const justExpired = await attempt({
      number: '4242424242424242',
      expMonth: lastMonth.getUTCMonth() + 1,
      expYear: lastMonth.getUTCFullYear(),
    });
    expect(justExpired.status).toBe(400);
    expect((await attempt({ number: '4242424242424242', cvc: '12' })).status).toBe(400);
    expect((await attempt({ number: '4242', cvc: '123' })).status).toBe(400);
    expect(await harness.db.paymentInstrument.count({ where: { customerId: customer.id } })).toBe(0);

    const instrument = await ok(harness, 'POST', '/payment-instruments', t.merchant.token, {
      customerId: customer.id,
      card: { number: '5555555555554444', expMonth: 6, expYear: nextYear, cvc: '999' },
    });
    expect(instrument.brand).toBe('mastercard');
    const past = await call(harness, 'POST', `${api}/payment-instruments/update`, {
      token: t.merchant.token,
      body: { id: instrument.id, data: { expYear: 2020 } },
    });
    expect(past.status).toBe(400);
  });

  it("hides another account's instruments and test-mode instruments from live keys", async () => {
    const customer = await createCustomer(harness, t.merchant.token);
    const instrument = await ok(harness, 'POST', '/payment-instruments', t.merchant.token, {
      customerId: customer.id,
      card: { number: '378282246310005', expMonth: 1, expYear: nextYear, cvc: '1234' },
    });
    expect(instrument).toMatchObject({ brand: 'amex', bin: '378282', last4: '0005' });
    for (const token of [t.other.token, t.liveToken]) {
      expect((await call(harness, 'GET', `${api}/payment-instruments/${instrument.id}`, { token })).status).toBe(404);
      expect(
        (await call(harness, 'GET', `${api}/customers/${customer.id}/payment-instruments`, { token })).status,
      ).toBe(404);
      expect(
        (
          await call(harness, 'POST', `${api}/payment-instruments/update`, {
            token,
            body: { id: instrument.id, data: { expMonth: 2 } },
          })
        ).status,
      ).toBe(404);
      const listed = await ok(harness, 'POST', '/payment-instruments/list', token, {});
      expect(listed.data.map((row: { id: string }) => row.id)).not.toContain(instrument.id);
      const foreign = await call(harness, 'POST', `${api}/payment-instruments`, {
        token,
        body: {
          customerId: customer.id,
          card: { number: '4242424242424242', expMonth: 1, expYear: nextYear, cvc: '123' },
        },
      });
      expect(foreign.status).toBe(404);
    }
  });

  it('leaves a tokenized PAN nowhere in the database (every text/jsonb/array column of every table) nor in the logs', async () => {
    const pan = uniquePan();
    const badPan = `${pan.slice(0, 15)}${(Number(pan[15]) + 1) % 10}`;
    const customer = await createCustomer(harness, t.merchant.token);
    // Sent with an Idempotency-Key: the stored request fingerprint and answer must not give the card away either.
    const idempotencyKey = `card-${pan.slice(-6)}-${Date.now()}`;
    const body = { customerId: customer.id, card: { number: pan, expMonth: 3, expYear: nextYear, cvc: '321' } };
    const first = await call(harness, 'POST', `${api}/payment-instruments`, {
      token: t.merchant.token,
      body,
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(first.status).toBe(200);
    const instrument = first.body;
    expect(instrument.last4).toBe(pan.slice(-4));
    const replay = await call(harness, 'POST', `${api}/payment-instruments`, {
      token: t.merchant.token,
      body,
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect({ status: replay.status, replayed: replay.headers.get('idempotent-replayed'), body: replay.body }).toEqual({
      status: 200,
      replayed: 'true',
      body: instrument,
    });
    const otherCvc = await call(harness, 'POST', `${api}/payment-instruments`, {
      token: t.merchant.token,
      body: { ...body, card: { ...body.card, cvc: '322' } },
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect({ status: otherCvc.status, code: otherCvc.body.code }).toEqual({
      status: 409,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });

    const record = await harness.db.idempotencyRecord.findFirstOrThrow({ where: { key: idempotencyKey } });
    const requestText = `POST ${api}/payment-instruments\n${canonical(body)}`;
    // Keyed with the engine's secret: hashing guessed PAN + CVC combinations cannot reproduce it.
    expect(record.requestHash).not.toBe(createHash('sha256').update(requestText).digest('hex'));
    expect(record.requestHash).toBe(
      createHmac('sha256', idempotencyHashKey(harness.config)).update(requestText).digest('hex'),
    );
    expect(record.responseBody).toEqual(instrument);
    for (const secret of ['number', 'pan', 'cardNumber', 'cvc', 'cvv', 'encryptedPan', 'card'])
      expect(record.responseBody).not.toHaveProperty(secret);
    expect(JSON.stringify(record.responseBody)).not.toContain(pan);
    const rejected = await call(harness, 'POST', `${api}/payment-instruments`, {
      token: t.merchant.token,
      body: { customerId: customer.id, card: { number: badPan, expMonth: 3, expYear: nextYear, cvc: '321' } },
    });
    expect(rejected.status).toBe(400);
    expect(JSON.stringify(rejected.body)).not.toContain(badPan);
    const row = await harness.db.paymentInstrument.findUniqueOrThrow({ where: { id: instrument.id } });
    expect(decryptPan(row.encryptedPan, row.id, harness.config)).toBe(pan);

    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      const columns = await client.query<{ table_name: string; column_name: string }>(
        `SELECT c.table_name, c.column_name FROM information_schema.columns c
           JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
          WHERE c.table_schema = 'public' AND (c.data_type IN ('text', 'character varying', 'character', 'jsonb', 'json') OR c.data_type = 'ARRAY')`,
      );
      expect(columns.rows.length).toBeGreaterThan(20);
      expect(columns.rows).toContainEqual({ table_name: 'payment_instruments', column_name: 'encrypted_pan' });
      const hits: string[] = [];
      for (const { table_name: table, column_name: column } of columns.rows) {
        const found = await client.query(
          `SELECT 1 FROM "${table}" WHERE "${column}"::text LIKE $1 OR "${column}"::text LIKE $2 LIMIT 1`,
          [`%${pan}%`, `%${badPan}%`],
        );
        if (found.rowCount) hits.push(`${table}.${column}`);
      }
      expect(hits).toEqual([]);
    } finally {
      await client.end();
    }

    const logText = logged.join('');
    // The capture is live: the request lines for these very calls are in it.
    expect(logText).toContain('/payment-instruments');
    expect(logText).not.toContain(pan);
    expect(logText).not.toContain(badPan);
  });
});
