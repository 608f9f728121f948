import { execFileSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { projectRoot } from '../../src/config';

/** The import names eslint.config.mjs forbids in workflows/ (read by Node itself: the config is ESM). */
function restrictedInWorkflows(): string[] {
  const script = `
    const { default: config } = await import('./eslint.config.mjs');
    const block = config.find((entry) => entry.files?.includes('workflows/**/*.ts'));
    const [, options] = block.rules['no-restricted-imports'];
    process.stdout.write(JSON.stringify(options.paths.map((path) => path.name)));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: projectRoot, encoding: 'utf8' }),
  ) as string[];
}

describe('workflow lint rules', () => {
  it('forbid every Node builtin in workflow code, bare and as node:x', () => {
    const restricted = new Set(restrictedInWorkflows());
    const expected = builtinModules.flatMap((name) => (name.startsWith('node:') ? [name] : [name, `node:${name}`]));
    expect(expected.filter((name) => !restricted.has(name))).toEqual([]);
    expect(restricted.has('diagnostics_channel')).toBe(true);
  });
});
