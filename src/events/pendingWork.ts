/**
 * Work a worker goes on with after an activity has answered: the events of a payment dispatched
 * after its commit while the payment's answer is already on its way. The worker waits for it
 * before it closes its connections; work cut off by a crash is the outbox sweep's.
 */
export class PendingWork {
  private readonly pending = new Set<Promise<void>>();
  private readonly waiting = new Map<NodeJS.Timeout, () => Promise<void>>();

  /** Starts `work`, which reports its own failures. */
  start(work: () => Promise<void>): void {
    const running = work().finally(() => this.pending.delete(running));
    this.pending.add(running);
  }

  /** Starts `work` after `ms` (at once when the worker stops before then). */
  startAfter(ms: number, work: () => Promise<void>): void {
    if (ms <= 0) return this.start(work);
    const timer = setTimeout(() => {
      this.waiting.delete(timer);
      this.start(work);
    }, ms);
    this.waiting.set(timer, work);
  }

  /** Starts what still waits for its time, then waits for everything started. */
  async settled(): Promise<void> {
    for (const [timer, work] of this.waiting) {
      clearTimeout(timer);
      this.start(work);
    }
    this.waiting.clear();
    await Promise.allSettled([...this.pending]);
  }
}
