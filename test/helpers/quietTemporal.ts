import { DefaultLogger, Runtime } from '@temporalio/worker';

// Worker state changes are noise in test output; warnings and errors still show.
try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  // already installed in this process
}
