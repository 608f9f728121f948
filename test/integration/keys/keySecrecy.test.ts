import { Writable } from 'node:stream';
import pino from 'pino';
import { hashToken } from '../../../src/domain/apiKeys';
import { redactedPaths } from '../../../src/logging/logger';
import { startApi, type RunningApi } from '../../../src/runtime/api';
import { addLegacyCrmKey, createMerchant, createPartner } from '../../helpers/fixtures';
import { call, startHarness, type Harness } from '../../helpers/harness';

/** The engine's logger configuration (same redaction), at trace level, writing into memory. */
function capturingLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const logger = pino(
    { level: 'trace', redact: { paths: redactedPaths, censor: '[redacted]' }, base: { service: 'payment-engine' } },
    sink,
  );
  return { logger, text: () => lines.join('') };
}

describe('no key in clear in the database or the logs', () => {
  let harness: Harness;
  let api: RunningApi;
  const logs = capturingLogger();

  beforeAll(async () => {
    harness = await startHarness();
    api = await startApi(
      {
        db: harness.db,
        temporal: harness.temporal,
        config: harness.config,
        logger: logs.logger,
        taskQueue: harness.taskQueue,
        sandboxUrl: harness.sandboxUrl,
      },
      0,
      '127.0.0.1',
    );
  });
  afterAll(async () => {
    await api?.stop();
    await harness?.stop();
  });

  it('stores only hashes and prefixes, and logs neither tokens nor secrets through a whole key lifecycle', async () => {
    const partner = await createPartner(harness.db);
    const merchant = (
      await call(api, 'POST', '/api/public/v1/partner/merchants', {
        token: partner.token,
        body: { name: 'Secret Shop' },
      })
    ).body;
    const crm = (
      await call(api, 'POST', `/api/public/v1/partner/merchants/${merchant.id}/keys`, {
        token: partner.token,
        body: {},
      })
    ).body;
    const store = (
      await call(api, 'POST', '/api/public/v1/stores', { token: crm.token, body: { name: 'S', baseCurrency: 'EUR' } })
    ).body;
    const tpa = (
      await call(api, 'POST', '/api/processing/v1/partner/tpas', {
        token: partner.token,
        body: { accountId: merchant.id, storeId: store.id },
      })
    ).body;
    const processing = (
      await call(api, 'POST', `/api/processing/v1/partner/tpas/${tpa.id}/keys`, { token: partner.token, body: {} })
    ).body;
    const legacy = await addLegacyCrmKey(harness.db, await createMerchant(harness.db));
    const tokens = [partner.token, crm.token, processing.secret, legacy];
    expect(tokens.every((token) => typeof token === 'string' && token.length >= 36)).toBe(true);

    // Use every key, in the right and the wrong places, then revoke and use again.
    await call(api, 'GET', '/api/public/v1/auth/test', { token: crm.token });
    await call(api, 'GET', '/api/public/v1/auth/test', { token: legacy });
    await call(api, 'GET', '/api/processing/v1/auth/test', { token: processing.secret });
    await call(api, 'GET', '/api/processing/v1/auth/test', { token: crm.token });
    await call(api, 'GET', '/api/public/v1/auth/test', { token: partner.token });
    await call(api, 'POST', '/api/public/v1/stores', { token: crm.token, raw: '{"broken": ' });
    await call(api, 'GET', '/api/public/v1/auth/test', { headers: { authorization: `Basic ${crm.token}` } });
    await call(api, 'POST', `/api/public/v1/partner/merchants/${merchant.id}/keys/${crm.id}/revoke`, {
      token: partner.token,
    });
    await call(api, 'GET', '/api/public/v1/auth/test', { token: crm.token });
    logs.logger.info(
      {
        token: crm.token,
        secret: processing.secret,
        partnerKey: partner.token,
        req: { headers: { authorization: `Bearer ${partner.token}` } },
      },
      'a careless log line',
    );
    logs.logger.info({ key: { token: legacy, secret: processing.secret } }, 'a nested careless log line');

    const logText = logs.text();
    expect(logText).toMatch(/"url":"\/api\/public\/v1\/auth\/test"/);
    expect(logText).toContain('a careless log line');
    for (const token of tokens) expect(logText).not.toContain(token);

    // Every column of every row of every table, as text.
    const tables = await harness.db.$queryRaw<{ table_name: string }[]>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
    expect(tables.map((t) => t.table_name)).toContain('api_keys');
    for (const { table_name: table } of tables) {
      for (const token of tokens) {
        const rows = await harness.db.$queryRawUnsafe<{ n: bigint }[]>(
          `SELECT count(*) AS n FROM "${table}" t WHERE t::text LIKE '%' || $1 || '%'`,
          token,
        );
        expect({ table, count: Number(rows[0]!.n) }).toEqual({ table, count: 0 });
      }
    }
    // What is kept instead: the SHA-256 hash, the 12-character prefix and the last 4 characters.
    const stored = await harness.db.apiKey.findUniqueOrThrow({ where: { id: crm.id } });
    expect(stored.tokenHash).toBe(hashToken(crm.token));
    expect(stored.prefix).toBe(crm.token.slice(0, 12));
    expect(stored.last4).toBe(crm.token.slice(-4));
  });

  it('logs no rate-limiter or key-recording warnings while serving those calls', () => {
    const warnings = logs
      .text()
      .split('\n')
      .filter((line) => /"level":(40|50)/.test(line));
    expect(warnings.filter((line) => /rate limit|ERR_ERL|lastUsedAt/.test(line))).toEqual([]);
  });
});
