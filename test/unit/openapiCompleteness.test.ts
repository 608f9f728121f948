import { buildOpenApiDocument } from '../../clients/typescript/scripts/openapiDocument';
import { declaredBodyExamples } from '../../src/http/core/route';

/**
 * Every operation a merchant's or a customer's client calls (/api/public/v1, /api/v1/portal) says in
 * its `description` what it does and when to use it, beyond its one-line summary, and shows an
 * example of its JSON body that the operation would accept: the document is what integrators read
 * (/docs, "Try it out" starts from the example) and what the typed client's comments come from.
 */
const document = buildOpenApiDocument();
const scopes = ['/api/public/v1/', '/api/v1/portal/'];

/** Sentences route.ts adds from a declaration's flags: they say who may call, not what the operation does. */
const generatedNotes = [/^Requires the org:admin role\.\s*/, /^Requires a \w+ partner: [^.]*\.\s*/];

type Operation = {
  summary?: string;
  description?: string;
  requestBody?: { content: Record<string, { example?: unknown }> };
};
const operations = Object.entries(document.paths ?? {})
  .filter(([path]) => scopes.some((scope) => path.startsWith(scope) || `${path}/` === scope))
  .flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${path}`,
      operation,
    })),
  );

function ownDescription(operation: Operation): string {
  return generatedNotes.reduce((text, note) => text.replace(note, ''), operation.description ?? '').trim();
}

describe('the OpenAPI document is complete for integrators', () => {
  it('covers the public API and the portal', () => {
    expect(operations.length).toBeGreaterThan(100);
    expect(operations.some(({ name }) => name.includes('/api/v1/portal/'))).toBe(true);
  });

  it('describes every operation beyond its summary', () => {
    const undescribed = operations
      .filter(({ operation }) => {
        const description = ownDescription(operation);
        return description.length < 20 || description === operation.summary;
      })
      .map(({ name }) => name);
    expect(undescribed).toEqual([]);
  });

  it('shows an example of every JSON request body', () => {
    const withoutExample = operations
      .filter(({ operation }) => {
        const json = operation.requestBody?.content['application/json'];
        return json !== undefined && json.example === undefined;
      })
      .map(({ name }) => name);
    expect(withoutExample).toEqual([]);
  });

  it('shows only examples the operation accepts: each parses with its body schema', () => {
    const examples = declaredBodyExamples();
    expect(examples.length).toBeGreaterThan(0);
    const refused = examples
      .map(({ method, path, schema, example }) => ({
        name: `${method.toUpperCase()} ${path}`,
        parsed: schema.safeParse(example),
      }))
      .filter(({ parsed }) => !parsed.success)
      .map(
        ({ name, parsed }) =>
          `${name}: ${parsed.error!.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`,
      );
    expect(refused).toEqual([]);
  });

  it('does not count the role and partner-kind notes as a description', () => {
    expect(ownDescription({ description: 'Requires the org:admin role.' })).toBe('');
    expect(
      ownDescription({
        description: 'Requires a payfac partner: any other partner key answers 403 payfac_required, whatever the body.',
      }),
    ).toBe('');
  });
});
