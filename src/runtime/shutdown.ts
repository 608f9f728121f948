import type { Logger } from '../logging/logger';

type Step = { name: string; stop: () => Promise<void> };

const shutdownSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Collects what was started and stops it in reverse order on SIGINT/SIGTERM/SIGHUP (or on a
 * start-up failure), so no postgres or temporal process outlives the engine.
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

  /** Stops everything, then exits once the last log lines have reached stdout. */
  async exit(code: number): Promise<never> {
    await this.stopAll();
    // pino writes asynchronously; process.exit() right away could drop "postgres stopped". The
    // timer covers a stdout that is gone (terminal closed: SIGHUP), where a flush never ends.
    await new Promise<void>((resolve) => {
      setTimeout(resolve, 2000);
      this.logger.flush(() => resolve());
    });
    process.exit(code);
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
      void this.exit(0);
    }, 500);
    timer.unref();
  }

  /**
   * The first signal starts an orderly shutdown; later ones (a second Ctrl-C, SIGTERM from a
   * supervisor) are ignored so they cannot cut the drain short. Stuck? `kill -9` is still there.
   */
  exitOnSignals(): void {
    this.exitWhenOrphaned();
    let first: NodeJS.Signals | undefined;
    for (const signal of shutdownSignals) {
      process.on(signal, () => {
        if (first) {
          this.logger.info({ signal }, 'already shutting down; signal ignored');
          return;
        }
        first = signal;
        this.logger.info({ signal }, 'shutting down');
        void this.exit(0);
      });
    }
  }
}
