import { PendingWork } from '../../src/events/pendingWork';

/** A payment's dispatch waits a few ms for its answer to leave, and a stopping worker does not lose it. */
describe('PendingWork', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('starts deferred work only when its time has come', async () => {
    const pending = new PendingWork();
    const ran: string[] = [];
    pending.startAfter(30, async () => {
      ran.push('dispatch');
    });
    jest.advanceTimersByTime(29);
    expect(ran).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(ran).toEqual(['dispatch']);
    await pending.settled();
  });

  it('starts at once with no delay', () => {
    const pending = new PendingWork();
    const ran: string[] = [];
    pending.startAfter(0, async () => {
      ran.push('dispatch');
    });
    expect(ran).toEqual(['dispatch']);
  });

  it('a stopping worker starts what still waits, waits for it, and it does not run again later', async () => {
    const pending = new PendingWork();
    let runs = 0;
    let finished = false;
    pending.startAfter(10_000, async () => {
      runs++;
      await Promise.resolve();
      finished = true;
    });
    await pending.settled();
    expect(finished).toBe(true);
    jest.advanceTimersByTime(20_000);
    expect(runs).toBe(1);
  });
});
