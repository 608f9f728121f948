import { call } from '../../helpers/harness';
import { useTenants } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, ok } from './commerceHelpers';

describe('block rules over HTTP', () => {
  const harness = useHarness();
  const t = useTenants(harness);

  const create = (body: Record<string, unknown>, token = t.merchant.token) =>
    call(harness, 'POST', `${api}/block-rules`, { token, body });
  const rule = (overrides: Record<string, unknown> = {}) => ({
    name: 'Block NG',
    type: 'country',
    value: ['NG'],
    enabled: true,
    ...overrides,
  });

  it('creates a rule and answers its fields with operator, ttlHours and expiresAt', async () => {
    const before = Date.now();
    const answer = await create(rule({ operator: 'AND', ttlHours: 24 }));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      name: 'Block NG',
      enabled: true,
      type: 'country',
      value: ['NG'],
      operator: 'AND',
      ttlHours: 24,
    });
    expect(answer.body.id).toMatch(/^br_/);
    const createdAt = Date.parse(answer.body.createdAt);
    expect(createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(answer.body.expiresAt) - createdAt).toBe(24 * 3_600_000);
    expect(await ok(harness, 'GET', `/block-rules/${answer.body.id}`, t.merchant.token)).toEqual(answer.body);
  });

  it('defaults to OR, enabled and no expiry', async () => {
    const answer = await create({ name: 'x', type: 'email', value: ['a@b.co'] });
    expect(answer.body).toMatchObject({ operator: 'OR', enabled: true, ttlHours: null, expiresAt: null });
  });

  it.each([
    ['IP', '10.0.0.0/8', 'ip', '10.0.0.0/8'],
    ['ip', '2001:db8::/32', 'ip', '2001:db8::/32'],
    ['email', 'Fraud@Example.COM', 'email', 'fraud@example.com'],
    ['email', '@Spam.test', 'email', '@spam.test'],
    ['card_bin', '424242', 'card_bin', '424242'],
    ['BIN', '42424242', 'card_bin', '42424242'],
    ['bin', '400000', 'card_bin', '400000'],
    ['country', 'ng', 'country', 'NG'],
  ])('accepts type %s with value %s, stored as %s %s', async (type, value, storedType, storedValue) => {
    const answer = await create(rule({ type, value: [value] }));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ type: storedType, value: [storedValue] });
  });

  it('stores combined conditions with their type prefix', async () => {
    const answer = await create(rule({ operator: 'AND', value: ['ng', 'BIN:400000'] }));
    expect(answer.body.value).toEqual(['NG', 'card_bin:400000']);
  });

  it.each<[string, Record<string, unknown>]>([
    ['empty name', { name: '' }],
    ['blank name', { name: '   ' }],
    ['ttlHours 0', { ttlHours: 0 }],
    ['ttlHours 8761', { ttlHours: 8761 }],
    ['ttlHours 1.5', { ttlHours: 1.5 }],
    ['unknown operator', { operator: 'XOR' }],
    ['lower-case operator', { operator: 'or' }],
    ['unknown type', { type: 'phone' }],
    ['empty value list', { value: [] }],
    ['bad country', { value: ['Nigeria'] }],
    ['bad ip', { type: 'ip', value: ['10.0.0.0/33'] }],
    ['bad bin (5 digits)', { type: 'bin', value: ['42424'] }],
    ['bad bin (9 digits)', { type: 'bin', value: ['424242424'] }],
    ['bad email', { type: 'email', value: ['not-an-email'] }],
    ['bad prefixed value', { value: ['NG', 'ip:nope'] }],
    ['unknown field', { note: 'x' }],
  ])('rejects %s with 400', async (_name, override) => {
    const answer = await create(rule(override));
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_ERROR');
  });

  it('names every bad value in issues, on create and when a new type re-checks the kept values', async () => {
    const created = await create(rule({ value: ['Nigeria', 'NG', 'ip:nope'] }));
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/^Invalid block rule value: value\.0: /),
    });
    expect(created.body.issues.map((issue: { path: string }) => issue.path)).toEqual(['value.0', 'value.2']);
    expect(created.body.issues[1].message).toMatch(/^value\.2: /);

    const { body } = await create(rule({ value: ['NG', 'DE'] }));
    const retyped = await call(harness, 'POST', `${api}/block-rules/update`, {
      token: t.merchant.token,
      body: { id: body.id, data: { type: 'ip' } },
    });
    expect(retyped.status).toBe(400);
    expect(retyped.body.code).toBe('VALIDATION_ERROR');
    expect(retyped.body.issues.map((issue: { path: string }) => issue.path)).toEqual(['value.0', 'value.1']);
  });

  it.each([1, 8760])('accepts ttlHours %i', async (ttlHours) => {
    const answer = await create(rule({ ttlHours }));
    expect(answer.status).toBe(200);
    expect(Date.parse(answer.body.expiresAt) - Date.parse(answer.body.createdAt)).toBe(ttlHours * 3_600_000);
  });

  it('lists with offset pagination, filters and sorting, scoped to the account', async () => {
    const mine = await Promise.all(
      ['L1', 'L2', 'L3'].map((name) =>
        create(rule({ name, type: 'email', value: [`${name.toLowerCase()}@list.test`] })),
      ),
    );
    await create(rule({ name: 'Foreign', type: 'email', value: ['l1@list.test'] }), t.other.token);
    const page1 = await ok(harness, 'POST', '/block-rules/list', t.merchant.token, {
      pagination: { page: 1, pageSize: 2 },
      sortBy: { field: 'name', direction: 'asc' },
      filters: { name: { condition: 'starts-with', value: 'L' }, type: 'email' },
    });
    expect(page1.pagination).toEqual({ page: 1, pageSize: 2, totalCount: 3, totalPages: 2 });
    expect(page1.data.map((r: { name: string }) => r.name)).toEqual(['L1', 'L2']);
    const page2 = await ok(harness, 'POST', '/block-rules/list', t.merchant.token, {
      pagination: { page: 2, pageSize: 2 },
      sortBy: { field: 'name', direction: 'asc' },
      filters: { name: { condition: 'starts-with', value: 'L' }, type: 'email' },
    });
    expect(page2.data.map((r: { id: string }) => r.id)).toEqual([mine[2]!.body.id]);
    const other = await ok(harness, 'POST', '/block-rules/list', t.other.token, { filters: { type: 'email' } });
    expect(other.data.map((r: { name: string }) => r.name)).toEqual(['Foreign']);
    const badFilter = await call(harness, 'POST', `${api}/block-rules/list`, {
      token: t.merchant.token,
      body: { filters: { type: 'phone' } },
    });
    expect(badFilter.status).toBe(400);
  });

  it('updates fields, re-checks values against a new type, and restarts or removes the expiry', async () => {
    const { body } = await create(rule({ ttlHours: 1 }));
    const renamed = await ok(harness, 'POST', '/block-rules/update', t.merchant.token, {
      id: body.id,
      data: { name: 'Renamed', enabled: false, operator: 'AND', value: ['de', 'FR'] },
    });
    expect(renamed).toMatchObject({
      name: 'Renamed',
      enabled: false,
      operator: 'AND',
      value: ['DE', 'FR'],
      ttlHours: 1,
      expiresAt: body.expiresAt,
      createdAt: body.createdAt,
    });

    const wrongType = await call(harness, 'POST', `${api}/block-rules/update`, {
      token: t.merchant.token,
      body: { id: body.id, data: { type: 'ip' } },
    });
    expect(wrongType.status).toBe(400);
    const retyped = await ok(harness, 'POST', '/block-rules/update', t.merchant.token, {
      id: body.id,
      data: { type: 'IP', value: ['192.0.2.0/24'] },
    });
    expect(retyped).toMatchObject({ type: 'ip', value: ['192.0.2.0/24'] });

    const before = Date.now();
    const extended = await ok(harness, 'POST', '/block-rules/update', t.merchant.token, {
      id: body.id,
      data: { ttlHours: 48 },
    });
    expect(Date.parse(extended.expiresAt)).toBeGreaterThanOrEqual(before + 48 * 3_600_000 - 1000);
    const forever = await ok(harness, 'POST', '/block-rules/update', t.merchant.token, {
      id: body.id,
      data: { ttlHours: null },
    });
    expect(forever).toMatchObject({ ttlHours: null, expiresAt: null });
    for (const ttlHours of [0, 8761]) {
      const bad = await call(harness, 'POST', `${api}/block-rules/update`, {
        token: t.merchant.token,
        body: { id: body.id, data: { ttlHours } },
      });
      expect(bad.status).toBe(400);
    }
  });

  it('deletes a rule; a second delete is 404', async () => {
    const { body } = await create(rule());
    expect(await ok(harness, 'DELETE', `/block-rules/${body.id}`, t.merchant.token)).toEqual({
      id: body.id,
      deleted: true,
    });
    expect((await call(harness, 'GET', `${api}/block-rules/${body.id}`, { token: t.merchant.token })).status).toBe(404);
    expect((await call(harness, 'DELETE', `${api}/block-rules/${body.id}`, { token: t.merchant.token })).status).toBe(
      404,
    );
  });

  it("answers 404 for another account's or mode's rule on get, update and delete", async () => {
    const { body } = await create(rule());
    for (const token of [t.other.token, t.liveToken]) {
      expect((await call(harness, 'GET', `${api}/block-rules/${body.id}`, { token })).status).toBe(404);
      expect(
        (
          await call(harness, 'POST', `${api}/block-rules/update`, {
            token,
            body: { id: body.id, data: { enabled: false } },
          })
        ).status,
      ).toBe(404);
      expect((await call(harness, 'DELETE', `${api}/block-rules/${body.id}`, { token })).status).toBe(404);
    }
    expect((await ok(harness, 'GET', `/block-rules/${body.id}`, t.merchant.token)).enabled).toBe(true);
  });
});
