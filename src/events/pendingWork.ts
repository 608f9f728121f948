/**
 * Work a worker goes on with after an activity has answered: the events of a payment dispatched
 * after its commit while the payment's answer is already on its way. The worker waits for it
 * before it closes its connections; work cut off by a crash is the outbox sweep's.
 */
export class PendingWork {
  private readonly pending = new Set<Promise<void>>();

  /** Starts `work`, which reports its own failures. */
  start(work: () => Promise<void>): void {
    const running = work().finally(() => this.pending.delete(running));
    this.pending.add(running);
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }
}
