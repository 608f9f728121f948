import { addCrmKey, createMerchant } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';

/** The resource groups (tags) the API offers; each must have an operation in /openapi.json. */
const resourceGroups = [
  'auth',
  'stores',
  'products',
  'customers',
  'orders',
  'payments',
  'subscriptions',
  'payment-flows',
  'payment-instruments',
  'processors',
  'promotions',
  'promotion-codes',
  'block-rules',
  'webhooks',
  'events',
  'domains',
  'funnels',
  'funnel-sessions',
  'funnel-tracking',
  'plugins',
  'plugins-v2',
  'checkout',
  'checkout-offers',
  'email-templates',
  '3ds',
  'builder',
  'health',
  'test',
  'portal',
];

interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
}

describe('every resource group of the API has routes in /openapi.json', () => {
  const harness = useHarness();
  let operations: { method: string; path: string; operation: Operation }[];
  beforeAll(async () => {
    const document = await call(harness, 'GET', '/openapi.json');
    expect(document.status).toBe(200);
    operations = Object.entries(document.body.paths as Record<string, Record<string, Operation>>).flatMap(
      ([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ method, path, operation })),
    );
  });

  const tagged = (tag: string) => operations.filter(({ operation }) => operation.tags?.includes(tag));

  it.each(resourceGroups)('tag %s has at least one operation', (tag) => {
    expect(tagged(tag).length).toBeGreaterThan(0);
  });

  it('the test group (sandbox-only utilities) answers 403 TEST_MODE_ONLY to a live key on every operation', async () => {
    const merchant = await createMerchant(harness.db, { mode: 'test' });
    const liveToken = await addCrmKey(harness.db, merchant, { mode: 'live' });
    const testOperations = tagged('test');
    expect(testOperations.length).toBeGreaterThan(0);
    for (const { method, path } of testOperations) {
      const answer = await call(harness, method.toUpperCase(), path, { token: liveToken, body: {} });
      expect({ method, path, status: answer.status, code: answer.body.code }).toEqual({
        method,
        path,
        status: 403,
        code: 'TEST_MODE_ONLY',
      });
    }
  });
});
