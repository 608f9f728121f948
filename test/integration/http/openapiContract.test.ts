import { allOperations, type Operation } from '../../../src/http/core/operations';
import { takeContractViolations, type ContractViolation } from '../../../src/http/core/responseContract';
import { addProcessingKey, createMerchant, createPartner } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';

/**
 * A sweep of every operation in /openapi.json with the answers any caller can provoke without
 * knowing the engine's data: no key, a key of every kind, a member key, unknown ids in the path,
 * an empty or non-JSON body, U+0000 in the query, a body over the limit. Each answer is checked
 * against what its operation declares (src/http/core/responseContract.ts); the test fails on any
 * status or body the document does not declare.
 */
describe('every answer is declared by its operation in /openapi.json', () => {
  const harness = useHarness();
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    // One account per key: the rate limit counts per account, and the sweep sends hundreds.
    tokens.crm = (await createMerchant(harness.db)).token;
    tokens.member = (await createMerchant(harness.db, { role: 'org:member' })).token;
    tokens.partner = (await createPartner(harness.db)).token;
    tokens.processing = (await addProcessingKey(harness.db, await createMerchant(harness.db), [])).token;
  });

  const oversized = 'x'.repeat(1024 * 1024 + 1);
  const concretePath = (operation: Operation) =>
    operation.path.replace(
      /\{([^}]+)\}/g,
      (_all, name: string) => `${name.replace(/Id$/, '').toLowerCase()}_unknown0000`,
    );

  async function sweep(operation: Operation, seen: Map<string, Set<number>>) {
    const path = concretePath(operation);
    const method = operation.method.toUpperCase();
    const takesBody = method !== 'GET' && method !== 'DELETE';
    const answers = await Promise.all([
      call(harness, method, path),
      call(harness, method, path, { headers: { authorization: 'Bearer sk_crm_test_doesnotexist000000000000000000' } }),
      ...Object.values(tokens).map((token) =>
        call(harness, method, path, { token, ...(takesBody ? { body: {} } : {}) }),
      ),
      call(harness, method, `${path}?filter=%00`, { token: tokens.crm }),
      ...(takesBody
        ? [
            call(harness, method, path, {
              token: tokens.crm,
              raw: 'name=x',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
            }),
            call(harness, method, path, {
              token: tokens.crm,
              raw: '{"broken": ',
              headers: { 'content-type': 'application/json' },
            }),
          ]
        : []),
      // The engine answers 413 and closes without reading: the client may see the close first.
      call(harness, method, path, { raw: oversized }).catch(() => undefined),
    ]);
    const statuses = seen.get(`${method} ${operation.path}`) ?? new Set<number>();
    for (const answer of answers) if (answer) statuses.add(answer.status);
    seen.set(`${method} ${operation.path}`, statuses);
  }

  it('answers every sweep request with a declared status and body', async () => {
    const operations = allOperations();
    expect(operations.length).toBeGreaterThan(100);
    const seen = new Map<string, Set<number>>();
    const violations: ContractViolation[] = [];
    // A few at a time: the machine is small, and the rate limit counts per account.
    for (let i = 0; i < operations.length; i += 4) {
      await Promise.all(operations.slice(i, i + 4).map((operation) => sweep(operation, seen)));
      violations.push(...takeContractViolations());
    }
    expect(violations).toEqual([]);
    // The sweep reached every operation and provoked the derived statuses, so the check had work.
    expect(seen.size).toBe(new Set(operations.map((operation) => `${operation.method} ${operation.path}`)).size);
    const all = new Set([...seen.values()].flatMap((statuses) => [...statuses]));
    for (const status of [400, 401, 403, 404, 413, 415]) expect(all).toContain(status);
  });
});
