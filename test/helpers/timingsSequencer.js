const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/**
 * Longest files first, so that the last minutes of a run are not one slow file on one worker while
 * the other idles. Jest's own sequencer does this from its cache of the previous run's times; a
 * fresh clone (CI, a newcomer) has no cache and jest falls back to file size, which says little
 * (a short file that waits a real minute is small). For a file without a cached time, this one
 * takes its time from test/timings.json: the seconds per file of a recorded run (refresh it from
 * .ci/test-timings.json, which every run writes).
 */
const recorded = (() => {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'timings.json'), 'utf8'));
  } catch {
    return {};
  }
})();

class TimingsSequencer extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    const seconds = recorded[path.relative(test.context.config.rootDir, test.path)];
    return typeof seconds === 'number' ? seconds * 1000 : undefined;
  }
}

module.exports = TimingsSequencer;
