import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../src/projectRoot';

const bundleFileName = 'workflow-bundle.js';
/** Where `npm run build` writes the workflow bundle (git-ignored with the rest of dist/). */
export const prebuiltBundleDir = path.join(projectRoot, 'dist', 'workflow-bundle');
export const prebuiltBundlePath = path.join(prebuiltBundleDir, bundleFileName);

/**
 * The bundle's inputs and their content hashes, written beside it: every project file webpack
 * read (from the bundle's inline source map), the files that say how to bundle, and the lockfile
 * for node_modules. The bundle is fresh while all of them still hash the same.
 */
interface BundleInputs {
  files: Record<string, string>;
}

const bundlingFiles = ['temporal/worker.ts', 'temporal/prebuiltBundle.ts', 'package-lock.json'];

function inputsPathOf(codePath: string): string {
  return codePath.replace(/\.js$/, '.inputs.json');
}

function hashOf(file: string, root: string): string | undefined {
  try {
    return createHash('sha256')
      .update(fs.readFileSync(path.join(root, file)))
      .digest('hex');
  } catch {
    return undefined;
  }
}

function inputsOf(code: string, root: string): BundleInputs {
  const match = /sourceMappingURL=data:application\/json;[^,]*base64,(\S+)/.exec(code);
  if (!match) throw new Error('workflow bundle has no inline source map to list its inputs from');
  const { sources } = JSON.parse(Buffer.from(match[1]!, 'base64').toString('utf8')) as { sources: string[] };
  const projectFiles = sources
    .filter((source) => path.isAbsolute(source) && !source.includes(`${path.sep}node_modules${path.sep}`))
    .map((source) => path.relative(root, source))
    // webpack's generated entry point is not a file on disk.
    .filter((file) => !file.startsWith('..') && fs.existsSync(path.join(root, file)));
  const files: Record<string, string> = {};
  for (const file of [...new Set([...projectFiles, ...bundlingFiles])].sort())
    files[file] = hashOf(file, root) ?? 'missing';
  return { files };
}

/** The bundle at `codePath` when it was built from the sources as they are now; undefined otherwise. */
export function freshBundle(codePath = prebuiltBundlePath, root = projectRoot): string | undefined {
  let inputs: BundleInputs;
  try {
    inputs = JSON.parse(fs.readFileSync(inputsPathOf(codePath), 'utf8')) as BundleInputs;
  } catch {
    return undefined;
  }
  if (!fs.existsSync(codePath)) return undefined;
  for (const [file, hash] of Object.entries(inputs.files))
    if ((hashOf(file, root) ?? 'missing') !== hash) return undefined;
  return codePath;
}

/**
 * Bundles the workflow code in a short-lived child process and answers the file it wrote.
 * Webpack, run inside the engine, leaves about 130 MB of RSS behind that the process never gives
 * back to the system (measured: 140 → 265 MB after GC); the child's memory goes with it.
 */
export async function buildWorkflowBundleFile(outputDir: string): Promise<string> {
  fs.mkdirSync(outputDir, { recursive: true });
  const codePath = path.join(outputDir, bundleFileName);
  await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', path.join(projectRoot, 'temporal', 'prebuiltBundle.ts'), codePath],
    {
      cwd: projectRoot,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return codePath;
}

/** The bundle `npm run build` made when it is fresh, else one built now (into dist/ by default). */
export async function ensureWorkflowBundle(outputDir = prebuiltBundleDir): Promise<string> {
  return freshBundle(path.join(outputDir, bundleFileName)) ?? buildWorkflowBundleFile(outputDir);
}

function writeWhole(file: string, contents: string): void {
  // Renamed into place whole: another process sharing the folder never reads half a file.
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, contents);
  fs.renameSync(partial, file);
}

async function writeBundle(codePath: string): Promise<void> {
  // Loaded here only: `npm run build` and the test set-up import this file without webpack or the SDK.
  const { workflowBundle } = await import('./worker');
  const { code } = await workflowBundle();
  writeBundleFiles(codePath, code);
}

/** Writes a bundle and, last, its inputs: a reader that finds them matching also finds the bundle. */
export function writeBundleFiles(codePath: string, code: string, root = projectRoot): void {
  writeWhole(codePath, code);
  writeWhole(inputsPathOf(codePath), `${JSON.stringify(inputsOf(code, root), null, 2)}\n`);
}

if (require.main === module) {
  const [codePath] = process.argv.slice(2);
  if (!codePath) throw new Error('usage: prebuiltBundle <output file>');
  writeBundle(codePath).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
