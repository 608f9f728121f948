import { listRequestExample } from '../../../src/http/lists';
import { createMerchant } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';

type Operation = { requestBody?: { content: Record<string, { example?: unknown }> } };

/**
 * The list bodies share one OpenAPI example (sort and filter on createdAt): each list operation
 * must really accept it, not only its schema (sort fields and filters are checked per list).
 */
describe('the shared list-body example', () => {
  const harness = useHarness();

  it('is answered 200 by every list operation that shows it', async () => {
    const document = (await call(harness, 'GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, Operation>>;
    };
    const lists = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.requestBody?.content['application/json']?.example !== undefined)
        .filter(([, operation]) => {
          const example = operation.requestBody!.content['application/json']!.example;
          return JSON.stringify(example) === JSON.stringify(listRequestExample);
        })
        .map(([method]) => ({ method, path })),
    );
    expect(lists.length).toBeGreaterThanOrEqual(15);
    const { token } = await createMerchant(harness.db);
    const answers = await Promise.all(
      lists.map(async ({ method, path }) => {
        const answer = await call(harness, method.toUpperCase(), path, { token, body: listRequestExample });
        return { path, status: answer.status, code: (answer.body as { code?: string }).code };
      }),
    );
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
  });
});
