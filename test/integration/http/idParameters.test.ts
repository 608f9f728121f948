import { addProcessingKey, createPartner, useMerchant } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { createCustomer, createStore, portalLogin } from '../subscriptions/subscriptionsFixtures';
import { createUserCommand } from '../../../src/iam/adminCommands';

/**
 * Every id parameter of every operation in /openapi.json (path, query and body, nested ones too)
 * must carry its prefix: a value without it answers 400 VALIDATION_ERROR naming the field, after
 * authentication and before any lookup (never 404). The table is read from the document, so a new
 * route is covered the day it is added.
 */
type Schema = {
  $ref?: string;
  pattern?: string;
  type?: string;
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};
type Operation = {
  security?: Record<string, unknown>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};
interface Segment {
  key: string;
  array: boolean;
  siblings: Record<string, unknown>;
}
interface IdCase {
  method: string;
  path: string;
  where: 'path' | 'query' | 'body';
  field: string;
  trail: Segment[];
  leafIsArray: boolean;
  operation: Operation;
}

/** Named like ids but not ours: another system's values, or (shippingAddressId) one no resource backs. */
const notOurIds = [
  'body:shippingAddressId',
  'body:cancelReasonId',
  'body:processorConfig.merchantId',
  'body:tokenId',
  // The sandbox processor's credentials name the acquirer's merchant, not one of ours.
  'body:credentials.merchantId',
  'body:updatedData.credentials.merchantId',
];
const idName = /(^id$|Id$|Ids$)/;
const withoutPrefix = 'abc123';

let components: Record<string, Schema> = {};
const deref = (schema: Schema | undefined): Schema =>
  schema?.$ref ? components[schema.$ref.split('/').pop()!]! : (schema ?? {});
const idPrefixesOf = (schema: Schema): string[] | undefined => {
  const own = deref(schema);
  const pattern = own.pattern ?? (own.anyOf ?? []).map(deref).find((alt) => alt.pattern)?.pattern;
  const prefixes = pattern?.match(/^\^(?:\(\?:([^)]+)\)|([0-9a-z]+))_/);
  return prefixes ? (prefixes[1] ?? prefixes[2])!.split('|') : undefined;
};
const constsOf = (schema: Schema) =>
  Object.fromEntries(
    Object.entries(schema.properties ?? {}).flatMap(([key, raw]) => {
      const prop = deref(raw);
      return prop.const !== undefined ? [[key, prop.const]] : prop.enum?.length === 1 ? [[key, prop.enum[0]]] : [];
    }),
  );

/** Id-named properties anywhere in a body schema, with the trail that reaches them. */
function bodyFields(
  schema: Schema,
  trail: Segment[] = [],
): { trail: Segment[]; leafIsArray: boolean; typed: boolean }[] {
  const own = deref(schema);
  const found = [...(own.anyOf ?? own.oneOf ?? []).flatMap((alt) => bodyFields(alt, trail))];
  const siblings = constsOf(own);
  for (const [key, raw] of Object.entries(own.properties ?? {})) {
    const prop = deref(raw);
    const items = prop.type === 'array' ? deref(prop.items) : undefined;
    if (idName.test(key))
      found.push({
        trail: [...trail, { key, array: false, siblings }],
        leafIsArray: !!items,
        typed: !!idPrefixesOf(items ?? prop),
      });
    else if (items) found.push(...bodyFields(items, [...trail, { key, array: true, siblings }]));
    else found.push(...bodyFields(prop, [...trail, { key, array: false, siblings }]));
  }
  return found;
}

const fieldName = (trail: Segment[]) =>
  trail.map((segment) => (segment.array ? `${segment.key}.0` : segment.key)).join('.');

function idCases(document: { paths: Record<string, Record<string, Operation>> }) {
  const cases: IdCase[] = [];
  const untyped = new Set<string>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const parameter of operation.parameters ?? []) {
        if (!idName.test(parameter.name)) continue;
        if (!idPrefixesOf(parameter.schema ?? {})) untyped.add(`${parameter.in}:${parameter.name}`);
        if (!notOurIds.includes(`${parameter.in}:${parameter.name}`))
          cases.push({
            method,
            path,
            where: parameter.in as 'path' | 'query',
            field: parameter.name,
            trail: [],
            leafIsArray: false,
            operation,
          });
      }
      const body = operation.requestBody?.content['application/json']?.schema;
      for (const found of body ? bodyFields(body) : []) {
        const field = fieldName(found.trail);
        if (!found.typed) untyped.add(`body:${field}`);
        if (
          !notOurIds.includes(`body:${field}`) &&
          !cases.some((known) => known.method === method && known.path === path && known.field === field)
        )
          cases.push({ method, path, where: 'body', field, ...found, operation });
      }
    }
  }
  return { cases, untyped: [...untyped].sort() };
}

describe('id parameters without their prefix are 400 on every route', () => {
  const harness = useHarness();
  const merchant = useMerchant(harness);
  let partnerToken: string;
  let processingToken: string;
  let portalToken: string;
  let iamSessionToken: string;
  let found: ReturnType<typeof idCases>;

  beforeAll(async () => {
    partnerToken = (await createPartner(harness.db)).token;
    const storeId = (await createStore(harness.db, merchant, 'Ids')).id;
    processingToken = (await addProcessingKey(harness.db, merchant, [storeId])).token;
    const email = `ids-${Date.now()}@example.com`;
    await createCustomer(harness.db, merchant, email, storeId);
    portalToken = await portalLogin(harness, storeId, email);
    iamSessionToken = (
      await createUserCommand(harness.db, harness.config, {
        email: `ids.${Date.now()}@example.test`,
        account: { accountId: merchant.accountId, role: 'org:admin' },
      })
    ).sessionToken;
    const document = (await call(harness, 'GET', '/openapi.json')).body;
    components = document.components.schemas;
    found = idCases(document);
  });

  it('types every id-named parameter and body field with its prefix, but for values that are not our ids', () => {
    expect(found.untyped).toEqual([...notOurIds].sort());
    // The subscription and membership ids that answered 404 are among the cases.
    expect(found.cases.map((entry) => `${entry.method} ${entry.path} ${entry.field}`)).toEqual(
      expect.arrayContaining([
        'post /api/public/v1/subscriptions customerId',
        'post /api/public/v1/memberships programId',
        'get /api/public/v1/memberships/{membershipId} membershipId',
      ]),
    );
    expect(found.cases.length).toBeGreaterThan(100);
  });

  it('answers 400 VALIDATION_ERROR naming the field for each of them', async () => {
    const outcomes: string[] = [];
    for (const entry of found.cases) {
      const url = entry.path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
        const schema = entry.operation.parameters!.find((parameter) => parameter.name === name)?.schema ?? {};
        return entry.where === 'path' && name === entry.field
          ? withoutPrefix
          : `${idPrefixesOf(schema)?.[0] ?? 'x'}_probe`;
      });
      const query = entry.where === 'query' ? `?${entry.field}=${withoutPrefix}` : '';
      let body: unknown = entry.leafIsArray ? [withoutPrefix] : withoutPrefix;
      for (const segment of [...entry.trail].reverse())
        body = { ...segment.siblings, [segment.key]: segment.array ? [body] : body };
      const security = Object.keys(entry.operation.security?.[0] ?? {})[0];
      const token =
        security === 'iamSession'
          ? iamSessionToken
          : security !== 'bearerAuth'
            ? undefined
            : /^\/api\/(public|processing)\/v1\/partner\//.test(entry.path)
              ? partnerToken
              : entry.path.startsWith('/api/processing/')
                ? processingToken
                : merchant.token;
      const answer = await call(harness, entry.method.toUpperCase(), `${url}${query}`, {
        token,
        headers: security === 'cmsToken' ? { 'x-cms-token': portalToken } : {},
        ...(entry.operation.requestBody ? { body: entry.where === 'body' ? body : {} } : {}),
      });
      const wanted = entry.leafIsArray ? `${entry.field}.0` : entry.field;
      const named =
        answer.status === 400 &&
        answer.body.code === 'VALIDATION_ERROR' &&
        answer.body.issues.some((issue: { path: string }) => issue.path === wanted);
      if (!named)
        outcomes.push(
          `${entry.method.toUpperCase()} ${entry.path} ${entry.where}:${wanted} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 160)}`,
        );
    }
    expect(outcomes).toEqual([]);
  });

  const listIdFilters: [string, string, string][] = [
    ['/customers/list', 'storeId', 'store'],
    ['/orders/list', 'storeId', 'store'],
    ['/orders/list', 'customerId', 'cus'],
    ['/checkout-sessions/list', 'storeId', 'store'],
    ['/checkout-sessions/list', 'customerId', 'cus'],
    ['/payments/list', 'storeId', 'store'],
    ['/payments/list', 'customerId', 'cus'],
    ['/payments/list', 'orderId', 'ord'],
    ['/payments/list', 'checkoutSessionId', 'ch'],
    ['/payments/list', 'processorId', 'proc'],
    ['/payments/list', 'paymentFlowId', 'flow'],
    ['/promotions/list', 'storeId', 'store'],
    ['/promotion-codes/list', 'promotionId', 'promo'],
    ['/products/list', 'storeId', 'store'],
    ['/prices/list', 'productId', 'prod'],
    ['/prices/list', 'variantId', 'var'],
    ['/payment-instruments/list', 'customerId', 'cus'],
    ['/checkout-offers/list', 'storeId', 'store'],
  ];

  it.each(listIdFilters)(
    'POST %s: an id filter %s without its prefix is 400 INVALID_FILTER; with it, a list',
    async (path, filter, prefix) => {
      const list = (value: unknown) =>
        call(harness, 'POST', `/api/public/v1${path}`, {
          token: merchant.token,
          body: { filters: { [filter]: value } },
        });
      for (const value of [
        withoutPrefix,
        [`${prefix}_probe`, withoutPrefix],
        { condition: 'not-equals', value: withoutPrefix },
      ]) {
        const answer = await list(value);
        expect({ status: answer.status, code: answer.body.code, names: answer.body.message.includes(filter) }).toEqual({
          status: 400,
          code: 'INVALID_FILTER',
          names: true,
        });
      }
      const fine = await list(`${prefix}_probe`);
      expect({ status: fine.status, rows: fine.body.data }).toEqual({ status: 200, rows: [] });
    },
  );
});
