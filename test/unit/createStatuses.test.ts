import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument } from '../../clients/typescript/scripts/openapiDocument';

/** docs/commerce.md lists every operation answering 201; the route declarations must agree. */
describe('which creates answer 201', () => {
  it('matches the documented list exactly', () => {
    const docs = readFileSync(path.join(__dirname, '../../docs/commerce.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## Creates: 201 or 200'), docs.indexOf('## Lists'));
    const documented = [...section.matchAll(/^\s*\| `POST ([^`]+)` +\|/gm)].map((match) => match[1]!).sort();
    expect(documented.length).toBeGreaterThan(0);

    const declared = Object.entries(buildOpenApiDocument().paths ?? {})
      .filter(([, operations]) => operations.post?.responses && '201' in operations.post.responses)
      .map(([route]) => route)
      .sort();
    expect(declared).toEqual(documented);
  });
});
