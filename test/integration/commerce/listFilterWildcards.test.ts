import { call } from '../../helpers/harness';
import { useTenants } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { api, createStore, ok } from './commerceHelpers';

/** `contains` / `starts-with` match the literal text: LIKE's `%`, `_` and `\` are not wildcards. */
describe('list filters: LIKE wildcards are literal, e-mails compare lower-cased', () => {
  const harness = useHarness();
  const t = useTenants(harness);
  const names = [
    '100% cotton',
    '100 cotton',
    'snake_case shop',
    'snakeXcase shop',
    'back\\slash',
    'backslash',
    'Plain',
  ];

  const storeNames = async (filter: unknown) => {
    const answer = await ok(harness, 'POST', '/stores/list', t.merchant.token, {
      filters: { name: filter },
      pagination: { pageSize: 100 },
    });
    return (answer.data as { name: string }[]).map((store) => store.name).sort();
  };

  beforeAll(async () => {
    for (const name of names) await createStore(harness, t.merchant.token, { name });
  });

  it.each([
    ['contains', '%', ['100% cotton']],
    ['contains', '_', ['snake_case shop']],
    ['contains', '\\', ['back\\slash']],
    ['contains', '0% c', ['100% cotton']],
    ['contains', 'e_c', ['snake_case shop']],
    ['starts-with', '%', []],
    ['starts-with', '100%', ['100% cotton']],
    ['starts-with', 'snake_', ['snake_case shop']],
    ['starts-with', 'BACK\\', ['back\\slash']],
    ['contains', 'COTTON', ['100 cotton', '100% cotton']],
  ])('%s %j matches only names with that literal text', async (condition, value, expected) => {
    expect(await storeNames({ condition, value })).toEqual(expected);
  });

  it('e-mail filters compare lower-cased, as e-mails are stored', async () => {
    const email = `Mixed.Case-${Date.now()}@Example.com`;
    const customer = await ok(harness, 'POST', '/customers', t.merchant.token, { email });
    const list = async (filter: unknown) =>
      (
        await call(harness, 'POST', `${api}/customers/list`, {
          token: t.merchant.token,
          body: { filters: { email: filter } },
        })
      ).body.data.map((row: { id: string }) => row.id);
    expect(await list(email)).toEqual([customer.id]);
    expect(await list({ condition: 'equals', value: email.toUpperCase() })).toEqual([customer.id]);
    expect(await list({ condition: 'in', value: [email.toUpperCase(), 'nobody@example.com'] })).toEqual([customer.id]);
    expect(await list({ condition: 'not-equals', value: email.toUpperCase() })).not.toContain(customer.id);
    expect(await list({ condition: 'contains', value: '%' })).toEqual([]);
  });
});
