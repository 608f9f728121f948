import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freshBundle, writeBundleFiles } from '../../temporal/prebuiltBundle';

/** A bundle's code as webpack writes it: the sources it read listed in an inline source map. */
function bundleCode(sources: string[]): string {
  const map = Buffer.from(JSON.stringify({ version: 3, sources, mappings: '' })).toString('base64');
  return `/* workflows */\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${map}\n`;
}

describe('prebuilt workflow bundle: used only while every input is as it was bundled', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'prebuilt-bundle-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  const codePath = path.join(root, 'dist', 'workflow-bundle', 'workflow-bundle.js');

  beforeEach(() => {
    write('workflows/index.ts', 'export const a = 1;\n');
    write('src/domain/money.ts', 'export const b = 2;\n');
    write('package-lock.json', '{"lockfileVersion":3}\n');
    fs.mkdirSync(path.dirname(codePath), { recursive: true });
    const sources = ['workflows/index.ts', 'src/domain/money.ts', 'node_modules/@temporalio/workflow/lib/index.js'];
    writeBundleFiles(
      codePath,
      bundleCode([...sources.map((file) => path.join(root, file)), 'webpack/bootstrap']),
      root,
    );
  });

  it('answers the bundle when nothing changed', () => {
    expect(freshBundle(codePath, root)).toBe(codePath);
  });

  it.each(['workflows/index.ts', 'src/domain/money.ts', 'package-lock.json'])('is stale once %s changes', (file) => {
    write(file, '// edited\n');
    expect(freshBundle(codePath, root)).toBeUndefined();
  });

  it('is stale when an input is gone, or the inputs list or the bundle is missing', () => {
    fs.rmSync(path.join(root, 'src/domain/money.ts'));
    expect(freshBundle(codePath, root)).toBeUndefined();
    write('src/domain/money.ts', 'export const b = 2;\n');
    expect(freshBundle(codePath, root)).toBe(codePath);
    fs.rmSync(codePath);
    expect(freshBundle(codePath, root)).toBeUndefined();
    expect(freshBundle(path.join(root, 'elsewhere', 'workflow-bundle.js'), root)).toBeUndefined();
  });
});
