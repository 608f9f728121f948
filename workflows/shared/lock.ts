/**
 * One holder at a time, waiters served in arrival order. A flag checked with `condition()` is not
 * a lock: every waiter blocked on `condition(() => !busy)` is released in the same pass when the
 * flag clears (and every handler of one activation passes an eager check), so two changes ran at
 * once. Here the lock is handed from the releaser straight to the next waiter instead.
 * Deterministic: only promises, no timers or I/O.
 */
export class WorkflowLock {
  private held = false;
  private readonly waiters: (() => void)[] = [];

  /** True while nobody holds the lock and nobody waits for it. */
  get idle(): boolean {
    return !this.held && this.waiters.length === 0;
  }

  /** Runs `work` alone; the next waiter gets the lock when it ends, however it ends. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.held) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.held = true;
    try {
      return await work();
    } finally {
      const next = this.waiters.shift();
      if (next) next();
      else this.held = false;
    }
  }
}
