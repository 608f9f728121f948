const TestRunner = require('jest-runner').default;

/**
 * The system tier's runner: its files one at a time, in one worker process (not jest's own), after
 * the other tiers' files (jest runs each runner's share in turn). They start whole engines, kill
 * them and time their recovery, so they get the machine to themselves.
 */
class SerialRunner extends TestRunner {
  constructor(globalConfig, context, options) {
    super({ ...globalConfig, maxWorkers: 1 }, context, options);
  }
}

module.exports = SerialRunner;
