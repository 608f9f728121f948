import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { projectRoot } from '../projectRoot';
import { ensureWorkflowBundle } from '../../temporal/prebuiltBundle';

/** The folders of TypeScript the engine's processes run. */
const sourceFolders = ['src', 'simulators', 'activities', 'workflows', 'temporal'];
/** Written by ensureWorkflowBundle, not compiled from a source file: kept by the clean-up below. */
const workflowBundleFolder = 'workflow-bundle';

/**
 * Compiles the engine's TypeScript to CommonJS under dist/, file by file in the same layout, for
 * `npm start`, `npm run api | worker | sandbox` (run by npm before each, and by `npm ci`).
 * Running compiled files instead of `node --import tsx` keeps tsx's loader thread, its transformed
 * sources and their inline source maps out of the engine: an idle engine measured 227 MB of RSS
 * against 347 MB under tsx (docs/operations.md, "Memory"). Workflow code is compiled too (the API
 * imports its signal and update definitions); the worker's webpack bundle is built from the
 * TypeScript sources by `npm run build` into dist/workflow-bundle/ (temporal/prebuiltBundle.ts).
 *
 * Unchanged outputs are not rewritten and each written file is renamed into place whole, so an
 * engine already running from dist/ never reads half a file. Outputs whose source is gone are
 * removed. Type checking stays with `npm run typecheck`: esbuild only strips types.
 */
export function buildEngine(root = projectRoot): { written: number; unchanged: number; removed: number } {
  const distDir = path.join(root, 'dist');
  const entryPoints = sourceFolders.flatMap((folder) => typeScriptFiles(path.join(root, folder)));
  const { outputFiles } = buildSync({
    entryPoints,
    outdir: distDir,
    outbase: root,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // Linked maps cost nothing unless NODE_OPTIONS=--enable-source-maps asks for TypeScript lines in stack traces.
    sourcemap: 'linked',
    write: false,
    logLevel: 'warning',
  });
  let written = 0;
  let unchanged = 0;
  const outputs = new Set<string>();
  for (const output of outputFiles) {
    outputs.add(output.path);
    if (sameContent(output.path, output.contents)) {
      unchanged++;
      continue;
    }
    fs.mkdirSync(path.dirname(output.path), { recursive: true });
    const partial = `${output.path}.${process.pid}.partial`;
    fs.writeFileSync(partial, output.contents);
    fs.renameSync(partial, output.path);
    written++;
  }
  let removed = 0;
  const bundleDir = path.join(distDir, workflowBundleFolder) + path.sep;
  for (const file of filesUnder(distDir)) {
    if (outputs.has(file) || file.endsWith('.partial') || file.startsWith(bundleDir)) continue;
    fs.rmSync(file, { force: true });
    removed++;
  }
  return { written, unchanged, removed };
}

function typeScriptFiles(folder: string): string[] {
  return filesUnder(folder).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.test.ts'),
  );
}

function filesUnder(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function sameContent(file: string, contents: Uint8Array): boolean {
  try {
    return Buffer.from(contents).equals(fs.readFileSync(file));
  } catch {
    return false;
  }
}

if (require.main === module) {
  const started = Date.now();
  const { written, unchanged, removed } = buildEngine();
  if (written > 0 || removed > 0) {
    process.stdout.write(
      `[build] dist/: ${written} compiled, ${unchanged} unchanged, ${removed} removed (${Date.now() - started} ms)\n`,
    );
  }
  // The worker loads this bundle when it is fresh (same sources), so start-up skips webpack.
  ensureWorkflowBundle().catch((error: unknown) => {
    process.stderr.write(`[build] workflow bundle: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
