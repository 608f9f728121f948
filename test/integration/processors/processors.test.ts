import { addCrmKey } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useTenants } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { openProcessorCredentials } from '../../../src/processors/credentials';
import { api, ok } from '../commerce/commerceHelpers';

const secret = 'sk_live_super_secret_value_123';
const validBody = () => ({
  name: 'Sandbox EU',
  type: 'sandbox',
  credentials: { merchantId: 'm_eu_1', apiKey: secret },
  supportedCurrencies: ['USD'],
  baseCurrency: 'EUR',
  enable3DS: true,
});

describe('processors over HTTP', () => {
  const harness = useHarness();
  const t = useTenants(harness);
  let memberToken: string;
  beforeAll(async () => {
    memberToken = await addCrmKey(harness.db, t.merchant, { role: 'org:member' });
  });

  const create = (body: unknown, token = t.merchant.token) =>
    call(harness, 'POST', `${api}/processors`, { token, body });

  it('creates, gets, lists and updates a processor without ever returning credentials', async () => {
    const created = await create(validBody());
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'Sandbox EU',
      type: 'sandbox',
      supportedCurrencies: ['EUR', 'USD'],
      baseCurrency: 'EUR',
      enabled: true,
      enable3DS: true,
      hasCredentials: true,
      mode: 'test',
      capabilities: { externalThreeDs: true, hostedThreeDs: false },
    });
    expect(created.body.id).toMatch(/^proc_/);
    const id = created.body.id as string;

    const got = await ok(harness, 'GET', `/processors/${id}`, t.merchant.token);
    expect(got).toEqual(created.body);
    const list = await ok(harness, 'GET', '/processors', t.merchant.token);
    expect(list.map((p: { id: string }) => p.id)).toContain(id);

    const updated = await ok(harness, 'POST', '/processors/update', t.merchant.token, {
      processorId: id,
      updatedData: {
        name: 'Hosted',
        type: 'sandbox_hosted3ds',
        enabled: false,
        credentials: { merchantId: 'm_eu_2' },
        supportedCurrencies: ['GBP'],
      },
    });
    expect(updated).toMatchObject({
      id,
      name: 'Hosted',
      type: 'sandbox_hosted3ds',
      enabled: false,
      supportedCurrencies: ['EUR', 'GBP'],
      enable3DS: true,
      capabilities: { externalThreeDs: false, hostedThreeDs: true },
    });

    for (const body of [created.body, got, list, updated])
      expect(JSON.stringify(body)).not.toMatch(/credentials"|m_eu_|sk_live/);

    // At rest: sealed, not in clear, and opens to the last credentials given.
    const row = await harness.db.processor.findUniqueOrThrow({ where: { id } });
    expect(row.encryptedCredentials).not.toContain('m_eu_2');
    expect(row.encryptedCredentials).toMatch(/^v2:[0-9a-f]{12}:/);
    expect(openProcessorCredentials(row.encryptedCredentials, row.id, harness.config)).toEqual({
      merchantId: 'm_eu_2',
    });
  });

  it('keeps the old credentials when an update does not send any', async () => {
    const { body } = await create(validBody());
    await ok(harness, 'POST', '/processors/update', t.merchant.token, {
      processorId: body.id,
      updatedData: { name: 'Renamed' },
    });
    const row = await harness.db.processor.findUniqueOrThrow({ where: { id: body.id } });
    expect(openProcessorCredentials(row.encryptedCredentials, row.id, harness.config)).toEqual({
      merchantId: 'm_eu_1',
      apiKey: secret,
    });
    const raw = await harness.db.$queryRaw<
      { encrypted_credentials: string }[]
    >`SELECT encrypted_credentials FROM processors WHERE id = ${body.id}`;
    expect(raw[0]!.encrypted_credentials).not.toContain(secret);
  });

  it.each<[string, Record<string, unknown>]>([
    ['unknown type', { type: 'acme' }],
    ['lower-case currency', { supportedCurrencies: ['usd'] }],
    ['non ISO currency', { baseCurrency: 'EURO' }],
    ['empty currencies', { supportedCurrencies: [] }],
    ['credentials not strings', { credentials: { merchantId: 1 } }],
    ['credentials missing', { credentials: undefined }],
    ['empty name', { name: '' }],
    ['unknown field', { secret: 'x' }],
    ['enable3DS not boolean', { enable3DS: 'yes' }],
  ])('rejects %s with 400', async (_name, override) => {
    const answer = await create({ ...validBody(), ...override });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_ERROR');
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['a missing required field', { apiKey: 'k' }, 'credentials.merchantId', 'merchantId'],
    ['an empty required field', { merchantId: '  ' }, 'credentials.merchantId', 'merchantId'],
    ['a field the type does not know', { merchantId: 'm', merchant_id: 'm' }, 'credentials', 'merchant_id'],
    ['a malformed field', { merchantId: 'm', timeoutDelayMs: 'soon' }, 'credentials.timeoutDelayMs', 'timeoutDelayMs'],
    [
      'an endpoint with a path',
      { merchantId: 'm', endpoint: 'http://127.0.0.1:9/v1' },
      'credentials.endpoint',
      'origin',
    ],
  ])(
    "checks credentials against the type's schema: %s is 400 naming the field",
    async (_name, credentials, path, named) => {
      const answer = await create({ ...validBody(), credentials });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', issues: [expect.objectContaining({ path })] });
      expect(answer.body.message).toContain(path);
      expect(answer.body.issues[0].message).toContain(named);
      // The refusal never echoes what was sent.
      expect(JSON.stringify(answer.body)).not.toContain('127.0.0.1');
    },
  );

  it('takes an endpoint in test mode and refuses it in live mode, naming the field', async () => {
    const endpoint = 'http://127.0.0.1:4010';
    const created = await create({ ...validBody(), credentials: { merchantId: 'm_ep', endpoint } });
    expect(created.status).toBe(200);
    const row = await harness.db.processor.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(openProcessorCredentials(row.encryptedCredentials, row.id, harness.config)).toEqual({
      merchantId: 'm_ep',
      endpoint,
    });

    const liveStripe = { ...validBody(), type: 'stripe', supportedCurrencies: ['EUR'] };
    const liveKey = { secretKey: 'sk_live_abcdefghijkl' };
    const live = await create({ ...liveStripe, credentials: { ...liveKey, endpoint } }, t.liveToken);
    expect(live.status).toBe(400);
    expect(live.body.issues).toEqual([
      { path: 'credentials.endpoint', message: 'credentials.endpoint: endpoint is allowed in test mode only' },
    ]);
    const liveWithout = await create({ ...liveStripe, credentials: liveKey }, t.liveToken);
    expect(liveWithout.status).toBe(200);
    const liveUpdate = await call(harness, 'POST', `${api}/processors/update`, {
      token: t.liveToken,
      body: { processorId: liveWithout.body.id, updatedData: { credentials: { ...liveKey, endpoint } } },
    });
    expect(liveUpdate.status).toBe(400);
    expect(liveUpdate.body.issues[0].path).toBe('updatedData.credentials.endpoint');
  });

  it('refuses an endpoint whose host is not in PROCESSOR_ENDPOINT_ALLOW (default: loopback), on create and update', async () => {
    for (const endpoint of ['http://10.0.0.7:4010', 'https://api.stripe.com', 'http://127.0.0.2:4010']) {
      const answer = await create({ ...validBody(), credentials: { merchantId: 'm_far', endpoint } });
      expect(answer.status).toBe(400);
      expect(answer.body.issues).toEqual([
        { path: 'credentials.endpoint', message: expect.stringContaining('PROCESSOR_ENDPOINT_ALLOW') },
      ]);
    }
    for (const endpoint of ['http://localhost:4010', 'http://[::1]:4010'])
      expect((await create({ ...validBody(), credentials: { merchantId: 'm_near', endpoint } })).status).toBe(200);
    const { body } = await create(validBody());
    const update = await call(harness, 'POST', `${api}/processors/update`, {
      token: t.merchant.token,
      body: { processorId: body.id, updatedData: { credentials: { merchantId: 'm', endpoint: 'http://10.0.0.7' } } },
    });
    expect(update.status).toBe(400);
    expect(update.body.issues[0].path).toBe('updatedData.credentials.endpoint');
    const row = await harness.db.processor.findUniqueOrThrow({ where: { id: body.id } });
    expect(openProcessorCredentials(row.encryptedCredentials, row.id, harness.config).endpoint).toBeUndefined();
  });

  it('refuses a live processor of a test-only type (sandbox simulators), on create and update, writing nothing', async () => {
    const before = await harness.db.processor.count({ where: { accountId: t.merchant.accountId, mode: 'live' } });
    for (const type of ['sandbox', 'sandbox_hosted3ds']) {
      const answer = await create({ ...validBody(), type, credentials: { merchantId: 'm_live' } }, t.liveToken);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'TEST_PROCESSOR_IN_LIVE_MODE',
        message: expect.stringContaining('stripe, adyen'),
      });
    }
    expect(await harness.db.processor.count({ where: { accountId: t.merchant.accountId, mode: 'live' } })).toBe(before);
    const stripe = await create(
      { ...validBody(), type: 'stripe', credentials: { secretKey: 'sk_live_abcdefghijkl' } },
      t.liveToken,
    );
    const toSandbox = await call(harness, 'POST', `${api}/processors/update`, {
      token: t.liveToken,
      body: { processorId: stripe.body.id, updatedData: { type: 'sandbox', credentials: { merchantId: 'm' } } },
    });
    expect(toSandbox.status).toBe(400);
    expect(toSandbox.body.code).toBe('TEST_PROCESSOR_IN_LIVE_MODE');
    expect((await ok(harness, 'GET', `/processors/${stripe.body.id}`, t.liveToken)).type).toBe('stripe');

    // A live sandbox row made before the refusal existed (the migration disables it): it cannot be
    // turned back on.
    const old = await harness.db.processor.create({
      data: {
        ...(await harness.db.processor.findUniqueOrThrow({ where: { id: stripe.body.id } })),
        id: 'proc_oldlivesandbox000',
        type: 'sandbox',
        enabled: false,
      },
    });
    const reEnable = await call(harness, 'POST', `${api}/processors/update`, {
      token: t.liveToken,
      body: { processorId: old.id, updatedData: { enabled: true } },
    });
    expect(reEnable.status).toBe(400);
    expect(reEnable.body.code).toBe('TEST_PROCESSOR_IN_LIVE_MODE');
    expect((await harness.db.processor.findUniqueOrThrow({ where: { id: old.id } })).enabled).toBe(false);
  });

  it.each([
    ['stripe', 'live', { secretKey: 'sk_test_abcdefghijkl' }, 'credentials.secretKey', 'sk_live_'],
    ['stripe', 'live', { secretKey: 'rk_test_abcdefghijkl' }, 'credentials.secretKey', 'sk_live_'],
    ['stripe', 'test', { secretKey: 'sk_live_abcdefghijkl' }, 'credentials.secretKey', 'sk_test_'],
    [
      'adyen',
      'test',
      { apiKey: 'k', merchantAccount: 'A', liveUrlPrefix: 'abc-Co' },
      'credentials.liveUrlPrefix',
      'live processors only',
    ],
    ['adyen', 'live', { apiKey: 'k', merchantAccount: 'A' }, 'credentials.liveUrlPrefix', 'needs liveUrlPrefix'],
  ])(
    'refuses %s credentials that reach the other environment than a %s processor (%j)',
    async (type, mode, credentials, path, hint) => {
      const token = mode === 'live' ? t.liveToken : t.merchant.token;
      const answer = await create({ ...validBody(), type, supportedCurrencies: ['EUR'], credentials }, token);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'VALIDATION_ERROR',
        issues: [{ path, message: expect.stringContaining(hint) }],
      });
    },
  );

  it('takes credentials of its own environment in each mode', async () => {
    const stripe = { ...validBody(), type: 'stripe', supportedCurrencies: ['EUR'] };
    expect((await create({ ...stripe, credentials: { secretKey: 'rk_live_abcdefghijkl' } }, t.liveToken)).status).toBe(
      200,
    );
    const adyen = { ...validBody(), type: 'adyen', supportedCurrencies: ['EUR'] };
    const liveAdyen = { apiKey: 'k', merchantAccount: 'A', liveUrlPrefix: '1797a841fbb37ca7-AcmeCom' };
    expect((await create({ ...adyen, credentials: liveAdyen }, t.liveToken)).status).toBe(200);
  });

  it('checks credentials sent in an update and keeps the stored ones when they are refused', async () => {
    const { body } = await create(validBody());
    const answer = await call(harness, 'POST', `${api}/processors/update`, {
      token: t.merchant.token,
      body: { processorId: body.id, updatedData: { credentials: { apiKey: 'only' } } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.issues[0].path).toBe('updatedData.credentials.merchantId');
    const row = await harness.db.processor.findUniqueOrThrow({ where: { id: body.id } });
    expect(openProcessorCredentials(row.encryptedCredentials, row.id, harness.config)).toEqual({
      merchantId: 'm_eu_1',
      apiKey: secret,
    });
  });

  it("takes a stripe processor with the credentials its type's schema asks for, and shows its capabilities", async () => {
    const stripe = { ...validBody(), name: 'Stripe', type: 'stripe', supportedCurrencies: ['EUR'] };
    const missing = await create({ ...stripe, credentials: { merchantId: 'm' } });
    expect(missing.status).toBe(400);
    expect(missing.body.issues.map((issue: { path: string }) => issue.path)).toContain('credentials.secretKey');

    const created = await create({
      ...stripe,
      credentials: { secretKey: 'sk_test_abcdefghijkl', webhookSecret: 'whsec_abcdefghijkl' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      type: 'stripe',
      hasCredentials: true,
      capabilities: { externalThreeDs: true, hostedThreeDs: false, partialCapture: true, multipleRefunds: true },
    });
    expect(created.body.capabilities.currencies).toEqual(expect.arrayContaining(['EUR', 'USD', 'JPY']));
    expect(created.body.capabilities.currencies).not.toContain('KWD');
    expect(JSON.stringify(created.body)).not.toMatch(/sk_test|whsec_/);
  });

  it("takes an adyen processor with the credentials its type's schema asks for, and never shows them", async () => {
    const adyen = { ...validBody(), name: 'Adyen', type: 'adyen', supportedCurrencies: ['EUR'] };
    const missing = await create({ ...adyen, credentials: { apiKey: 'AQE_test_key' } });
    expect(missing.status).toBe(400);
    expect(missing.body.issues.map((issue: { path: string }) => issue.path)).toContain('credentials.merchantAccount');

    const created = await create({
      ...adyen,
      credentials: {
        apiKey: 'AQE_test_key_secret',
        merchantAccount: 'AcmeECOM',
        hmacKey: '44782DEF547AAA06C910C43932B1EB0C',
      },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      type: 'adyen',
      hasCredentials: true,
      capabilities: { asyncModifications: true },
    });
    expect(JSON.stringify(created.body)).not.toMatch(/AQE_test_key_secret|44782DEF/);
  });

  it('refuses a type change whose stored credentials do not fit the new type, unless new credentials come with it', async () => {
    const { body } = await create(validBody());
    const change = (updatedData: Record<string, unknown>) =>
      call(harness, 'POST', `${api}/processors/update`, {
        token: t.merchant.token,
        body: { processorId: body.id, updatedData },
      });
    const refused = await change({ type: 'stripe' });
    expect(refused.status).toBe(400);
    expect(refused.body.issues.map((issue: { path: string }) => issue.path)).toContain(
      'updatedData.credentials.secretKey',
    );
    expect((await ok(harness, 'GET', `/processors/${body.id}`, t.merchant.token)).type).toBe('sandbox');
    const changed = await change({ type: 'stripe', credentials: { secretKey: 'sk_test_abcdefghijkl' } });
    expect(changed.status).toBe(200);
    expect(changed.body.type).toBe('stripe');
  });

  it('rejects an update to an unregistered type with 400 and leaves the processor as it was', async () => {
    const { body } = await create(validBody());
    const answer = await call(harness, 'POST', `${api}/processors/update`, {
      token: t.merchant.token,
      body: { processorId: body.id, updatedData: { type: 'acme', name: 'X' } },
    });
    expect(answer.status).toBe(400);
    expect((await ok(harness, 'GET', `/processors/${body.id}`, t.merchant.token)).name).toBe('Sandbox EU');
  });

  it('answers 403 to member keys on create and update, but lets them read', async () => {
    const { body } = await create(validBody());
    expect((await create(validBody(), memberToken)).status).toBe(403);
    const update = await call(harness, 'POST', `${api}/processors/update`, {
      token: memberToken,
      body: { processorId: body.id, updatedData: { name: 'Member' } },
    });
    expect(update.status).toBe(403);
    expect((await call(harness, 'GET', `${api}/processors/${body.id}`, { token: memberToken })).status).toBe(200);
  });

  it("answers 404 for another account's or mode's processor and hides it from lists", async () => {
    const { body } = await create(validBody());
    for (const token of [t.other.token, t.liveToken]) {
      expect((await call(harness, 'GET', `${api}/processors/${body.id}`, { token })).status).toBe(404);
      const update = await call(harness, 'POST', `${api}/processors/update`, {
        token,
        body: { processorId: body.id, updatedData: { name: 'Hijack' } },
      });
      expect(update.status).toBe(404);
      const list = await ok(harness, 'GET', '/processors', token);
      expect(list.map((p: { id: string }) => p.id)).not.toContain(body.id);
    }
    expect((await ok(harness, 'GET', `/processors/${body.id}`, t.merchant.token)).name).toBe('Sandbox EU');
  });
});
