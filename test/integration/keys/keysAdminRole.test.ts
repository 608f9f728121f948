import { addCrmKey, useMerchant } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';

interface AdminOperation {
  method: string;
  path: string;
  hasBody: boolean;
}

/** Every operation the OpenAPI document marks `x-required-role: org:admin`. */
function adminOperations(document: {
  paths: Record<string, Record<string, { 'x-required-role'?: string; requestBody?: unknown }>>;
}): AdminOperation[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => operation['x-required-role'] === 'org:admin')
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        hasBody: operation.requestBody !== undefined,
      })),
  );
}

/** Path parameters become ids that exist nowhere: the role check must not need the resource. */
const concretePath = (path: string) =>
  path.replace(/\{([A-Za-z0-9_]+)\}/g, (_match, name: string) => `${name}_doesnotexist`);

describe('org:admin operations, found generically in the OpenAPI document', () => {
  const harness = useHarness();
  const merchant = useMerchant(harness);
  let member: string;
  let operations: AdminOperation[];

  beforeAll(async () => {
    member = await addCrmKey(harness.db, merchant, { role: 'org:member' });
    operations = adminOperations((await call(harness, 'GET', '/openapi.json')).body);
  });

  it('marks the admin-only operations (events, webhooks, processors, payment flows, 3DS)', () => {
    expect(operations.length).toBeGreaterThanOrEqual(10);
    expect(operations).toContainEqual({ method: 'POST', path: '/api/public/v1/events/recent', hasBody: true });
  });

  it('answers a member key 403 ROLE_REQUIRED on each, before validating the body or looking up the resource', async () => {
    for (const { method, path, hasBody } of operations) {
      const answer = await call(harness, method, concretePath(path), { token: member, body: hasBody ? {} : undefined });
      expect({ method, path, status: answer.status, code: answer.body?.code }).toEqual({
        method,
        path,
        status: 403,
        code: 'ROLE_REQUIRED',
      });
    }
  });

  it('lets an admin key past the role check on each (it then validates or looks up as usual)', async () => {
    for (const { method, path, hasBody } of operations) {
      const answer = await call(harness, method, concretePath(path), {
        token: merchant.token,
        body: hasBody ? {} : undefined,
      });
      expect({ method, path, forbidden: answer.status === 403 }).toEqual({ method, path, forbidden: false });
    }
  });
});
