import type { Logger } from '../logging/logger';

type Step = { name: string; stop: () => Promise<void> };

/**
 * Collects what was started and stops it in reverse order on SIGINT/SIGTERM (or on a start-up
 * failure), so no postgres or temporal process outlives the engine.
 */
export class Lifecycle {
  private readonly steps: Step[] = [];
  private stopping?: Promise<void>;

  constructor(private readonly logger: Logger) {}

  add(name: string, stop: () => Promise<void>): void {
    this.steps.push({ name, stop });
  }

  stopAll(): Promise<void> {
    this.stopping ??= (async () => {
      for (const step of [...this.steps].reverse()) {
        try {
          await step.stop();
          this.logger.info(`${step.name} stopped`);
        } catch (error) {
          this.logger.error({ err: error }, `${step.name} failed to stop`);
        }
      }
    })();
    return this.stopping;
  }

  /**
   * npm runs scripts through a shell that does not pass SIGTERM on; when that shell dies we are
   * re-parented, so we notice and shut down instead of leaving postgres and temporal running.
   */
  exitWhenOrphaned(): void {
    const parent = process.ppid;
    const timer = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(timer);
      this.logger.info('parent process exited; shutting down');
      void this.stopAll().then(() => process.exit(0));
    }, 500);
    timer.unref();
  }

  exitOnSignals(): void {
    this.exitWhenOrphaned();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        this.logger.info({ signal }, 'shutting down');
        void this.stopAll().then(() => process.exit(0));
      });
    }
  }
}
