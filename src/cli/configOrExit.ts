import { config, ConfigError, type Config } from '../config';

/**
 * The parsed configuration for a command-line entry point. A bad variable is an operator's typo,
 * not a bug: it gets one line on stderr naming the variable and exit code 1, no stack trace.
 */
export function configOrExit(command: string): Config {
  try {
    return config();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${command}: ${error.message}\n`);
    process.exit(1);
  }
}
