import { copyFileSync, appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCommand } from '../../helpers/runCommand';

const generator = ['--import', 'tsx', 'clients/typescript/scripts/generate.ts'];
const committed = path.resolve(__dirname, '../../../clients/typescript/src/generated/api.ts');

/**
 * The typed client's committed types are what `npm run client:generate` makes from today's routes.
 * The generator runs under tsx as the npm script does (openapi-typescript needs Node's own ES
 * module loading, which Jest's module runtime does not give).
 */
describe('the typed client’s generated types', () => {
  it('match what the route declarations produce (else: npm run client:generate)', async () => {
    const run = await runCommand('node', [...generator, '--check']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('are reported as drifted when they differ from what the routes produce', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'client-types-'));
    const before = readFileSync(committed, 'utf8');
    try {
      const stale = path.join(dir, 'api.ts');
      copyFileSync(committed, stale);
      appendFileSync(stale, 'export type NotARoute = never;\n');
      const run = await runCommand('node', [...generator, '--check', stale]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('run npm run client:generate');
      // --check only reads: the committed file is left as it was.
      expect(readFileSync(committed, 'utf8')).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
