import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildEngine } from '../../src/cli/build';

function projectWith(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-engine-'));
  for (const [file, text] of Object.entries({ 'package.json': '{}', ...files })) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

/** The compiled file's answer() as plain node (no tsx, no jest) prints it. */
function run(root: string, file: string): string {
  const script = `console.log(require(${JSON.stringify(path.join(root, 'dist', file))}).answer())`;
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim();
}

describe('buildEngine: what npm start runs is the TypeScript compiled under dist/', () => {
  it('compiles each source file to CommonJS in the same layout, types stripped, tests and .d.ts left out', () => {
    const root = projectWith({
      'src/money.ts': 'export const cents = (amount: number): bigint => BigInt(amount);\n',
      'activities/pay.ts':
        "import { cents } from '../src/money';\nexport function answer(): string { return String(cents(1250)); }\n",
      'workflows/types.d.ts': 'export type X = number;\n',
      'src/money.test.ts': 'throw new Error("not compiled");\n',
      'test/helper.ts': 'export {};\n',
    });
    expect(buildEngine(root)).toEqual({ written: 4, unchanged: 0, removed: 0 }); // two .js, two .js.map
    expect(run(root, 'activities/pay.js')).toBe('1250');
    expect(fs.existsSync(path.join(root, 'dist', 'src', 'money.test.js'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'dist', 'workflows'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'dist', 'test'))).toBe(false);
  });

  it('rewrites only what changed and removes outputs whose source is gone', () => {
    const root = projectWith({
      'src/a.ts': 'export const answer = () => 1;\n',
      'src/b.ts': 'export const answer = () => 2;\n',
    });
    buildEngine(root);
    const unchangedAt = fs.statSync(path.join(root, 'dist', 'src', 'b.js')).mtimeMs;
    fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export const answer = () => 10;\n');
    expect(buildEngine(root)).toEqual({ written: 2, unchanged: 2, removed: 0 });
    expect(run(root, 'src/a.js')).toBe('10');
    expect(fs.statSync(path.join(root, 'dist', 'src', 'b.js')).mtimeMs).toBe(unchangedAt);
    fs.rmSync(path.join(root, 'src', 'b.ts'));
    expect(buildEngine(root)).toEqual({ written: 0, unchanged: 2, removed: 2 });
    expect(fs.existsSync(path.join(root, 'dist', 'src', 'b.js'))).toBe(false);
  });

  it('keeps the workflow bundle in dist/workflow-bundle/ (no source file of its own, written by npm run build)', () => {
    const root = projectWith({ 'src/a.ts': 'export const answer = () => 1;\n' });
    const bundle = path.join(root, 'dist', 'workflow-bundle', 'workflow-bundle.js');
    fs.mkdirSync(path.dirname(bundle), { recursive: true });
    fs.writeFileSync(bundle, '/* workflows */\n');
    expect(buildEngine(root)).toEqual({ written: 2, unchanged: 0, removed: 0 });
    expect(fs.existsSync(bundle)).toBe(true);
  });
});
