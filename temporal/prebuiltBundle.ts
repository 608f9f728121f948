import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../src/projectRoot';
import { workflowBundle } from './worker';

/**
 * Bundles the workflow code in a short-lived child process and answers the file it wrote.
 * Webpack, run inside the engine, leaves about 130 MB of RSS behind that the process never gives
 * back to the system (measured: 140 → 265 MB after GC); the child's memory goes with it.
 */
export async function buildWorkflowBundleFile(outputDir: string): Promise<string> {
  fs.mkdirSync(outputDir, { recursive: true });
  const codePath = path.join(outputDir, 'workflow-bundle.js');
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

async function writeBundle(codePath: string): Promise<void> {
  const { code } = await workflowBundle();
  // Renamed into place whole: another engine process sharing the folder never reads half a file.
  const partial = `${codePath}.${process.pid}.partial`;
  fs.writeFileSync(partial, code);
  fs.renameSync(partial, codePath);
}

if (require.main === module) {
  const [codePath] = process.argv.slice(2);
  if (!codePath) throw new Error('usage: prebuiltBundle <output file>');
  writeBundle(codePath).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
