import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The released histories are frozen: `test/replay/histories/released/MANIFEST.json` holds the
 * SHA-256 of every file in it, and a unit test (test/unit/releasedHistories.test.ts) fails when a
 * listed file changed or disappeared, or a file is not listed. New files may be added:
 * `npm run replay:manifest` (this file, also run by `npm run replay:record`) lists them, and
 * refuses to touch an entry that is already there.
 */
export const releasedDir = path.join(__dirname, 'histories', 'released');
export const manifestFile = path.join(releasedDir, 'MANIFEST.json');

export type Manifest = Record<string, string>;

export function sha256Of(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

export function releasedFiles(dir = releasedDir): string[] {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json') && name !== path.basename(manifestFile))
    .sort();
}

export function readManifest(file = manifestFile): Manifest {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest) : {};
}

/** What differs between the folder and its manifest: changed or missing listed files, unlisted files. */
export function manifestProblems(dir = releasedDir, manifest = readManifest(path.join(dir, 'MANIFEST.json'))) {
  const present = new Set(releasedFiles(dir));
  const changed: string[] = [];
  const missing: string[] = [];
  for (const [name, hash] of Object.entries(manifest)) {
    if (!present.has(name)) missing.push(name);
    else if (sha256Of(path.join(dir, name)) !== hash) changed.push(name);
  }
  const unlisted = [...present].filter((name) => !(name in manifest));
  return { changed, missing, unlisted };
}

/** Lists the unlisted files; fails (and writes nothing) when a listed one changed or is gone. */
export function addNewFiles(dir = releasedDir): string[] {
  const file = path.join(dir, 'MANIFEST.json');
  const manifest = readManifest(file);
  const { changed, missing, unlisted } = manifestProblems(dir, manifest);
  if (changed.length > 0 || missing.length > 0)
    throw new Error(
      `released histories must not change or disappear; changed: [${changed.join(', ')}], missing: [${missing.join(', ')}]`,
    );
  for (const name of unlisted) manifest[name] = sha256Of(path.join(dir, name));
  const sorted = Object.fromEntries(Object.entries(manifest).sort(([a], [b]) => a.localeCompare(b)));
  fs.writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
  return unlisted;
}

if (require.main === module) {
  const added = addNewFiles();
  process.stdout.write(`released histories: ${added.length} added to the manifest\n`);
}
