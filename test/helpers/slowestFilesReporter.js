const fs = require('node:fs');
const path = require('node:path');

/**
 * Prints the 15 slowest test files of the run and writes every file's time to .ci/test-timings.txt,
 * and as JSON (file → seconds, the shape of test/timings.json that orders a fresh clone's run) to
 * .ci/test-timings.json.
 */
class SlowestFilesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const files = results.testResults
      .map((file) => ({
        seconds: (file.perfStats.end - file.perfStats.start) / 1000,
        project: file.displayName?.name ?? '',
        file: path.relative(this.rootDir, file.testFilePath),
        failed: file.numFailingTests > 0 || Boolean(file.testExecError),
      }))
      .filter((file) => Number.isFinite(file.seconds))
      .sort((a, b) => b.seconds - a.seconds);
    if (files.length === 0) return;
    const line = (f) =>
      `${f.seconds.toFixed(1).padStart(7)} s  ${f.project.padEnd(11)} ${f.file}${f.failed ? '  (failed)' : ''}`;
    process.stderr.write(`\nSlowest test files:\n${files.slice(0, 15).map(line).join('\n')}\n`);
    const out = path.join(this.rootDir, '.ci', 'test-timings.txt');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${files.map(line).join('\n')}\n`);
    const seconds = Object.fromEntries(
      [...files].sort((a, b) => a.file.localeCompare(b.file)).map((f) => [f.file, Number(f.seconds.toFixed(1))]),
    );
    fs.writeFileSync(path.join(this.rootDir, '.ci', 'test-timings.json'), `${JSON.stringify(seconds, null, 2)}\n`);
  }
}

module.exports = SlowestFilesReporter;
