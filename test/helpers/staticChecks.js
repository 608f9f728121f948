/**
 * `npm test`'s static checks, run side by side instead of one after the other: eslint (typed
 * rules: it builds its own TypeScript program), prettier and `tsc --noEmit` are each single-threaded,
 * so on two cores the three take about as long as the slowest one. Each check's output is printed
 * whole when it ends (no interleaving); the exit code is non-zero when any check failed.
 *
 *   node test/helpers/staticChecks.js [script ...]   (default: lint format:check typecheck)
 */
const { spawn } = require('node:child_process');

const scripts = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['lint', 'format:check', 'typecheck'];

function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      process.stdout.write(`\n> npm run ${script}: ${ok ? 'ok' : `FAILED (${signal ?? code})`} in ${seconds} s\n`);
      if (!ok || output.length > 0) process.stdout.write(Buffer.concat(output));
      resolve(ok);
    });
  });
}

Promise.all(scripts.map(run)).then((results) => {
  process.exitCode = results.every(Boolean) ? 0 : 1;
});
