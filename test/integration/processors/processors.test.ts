import { addCrmKey } from '../../helpers/fixtures';
import { call, startHarness, type Harness } from '../../helpers/harness';
import { openProcessorCredentials } from '../../../src/processors/credentials';
import { api, createTenants, ok, type Tenants } from '../commerce/commerceHelpers';

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
  let harness: Harness;
  let t: Tenants;
  let memberToken: string;
  beforeAll(async () => {
    harness = await startHarness();
    t = await createTenants(harness);
    memberToken = await addCrmKey(harness.db, t.merchant, { role: 'org:member' });
  });
  afterAll(async () => {
    await harness?.stop();
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

    const live = await create({ ...validBody(), credentials: { merchantId: 'm_ep', endpoint } }, t.liveToken);
    expect(live.status).toBe(400);
    expect(live.body.issues).toEqual([
      { path: 'credentials.endpoint', message: 'credentials.endpoint: endpoint is allowed in test mode only' },
    ]);
    const liveWithout = await create({ ...validBody(), credentials: { merchantId: 'm_live' } }, t.liveToken);
    expect(liveWithout.status).toBe(200);
    const liveUpdate = await call(harness, 'POST', `${api}/processors/update`, {
      token: t.liveToken,
      body: { processorId: liveWithout.body.id, updatedData: { credentials: { merchantId: 'm_live', endpoint } } },
    });
    expect(liveUpdate.status).toBe(400);
    expect(liveUpdate.body.issues[0].path).toBe('updatedData.credentials.endpoint');
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
