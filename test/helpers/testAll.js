/**
 * `npm test`: the static checks (eslint, prettier, tsc: test/helpers/staticChecks.js) and jest side
 * by side rather than one after the other. Jest's tiers spend much of their time waiting on the dev
 * server, Postgres and the simulators, and the checks fill that idle CPU; run one after the other
 * the checks added their whole minute to the run. The checks' output is printed as each ends; the
 * exit code is non-zero when either failed. Arguments go to jest.
 */
const { spawn } = require('node:child_process');
const path = require('node:path');

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('close', (code, signal) => resolve({ ok: code === 0, code: signal ?? code }));
  });
}

async function main() {
  const started = Date.now();
  const [checks, jest] = await Promise.all([
    run(process.execPath, [path.join(__dirname, 'staticChecks.js')]),
    run(process.execPath, [require.resolve('jest/bin/jest'), ...process.argv.slice(2)]),
  ]);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const verdict = (name, result) => `${name} ${result.ok ? 'passed' : `FAILED (${result.code})`}`;
  process.stdout.write(`\nnpm test: ${verdict('checks', checks)}, ${verdict('jest', jest)} in ${seconds} s\n`);
  process.exitCode = checks.ok && jest.ok ? 0 : 1;
}

void main();
