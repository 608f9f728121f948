import type { Context } from '@temporalio/activity';
import { heartbeatIntervalMs, LivenessHeartbeat } from '../../temporal/heartbeat';

type Info = Context['info'];

function activityContext(info: Partial<Info>) {
  const heartbeat = jest.fn();
  return { ctx: { info: { isLocal: false, ...info } as Info, heartbeat }, heartbeat };
}

/** An activity whose own code never heartbeats: it just takes `ms`. */
function slowActivity(ms: number) {
  return () => new Promise<string>((resolve) => setTimeout(() => resolve('done'), ms));
}

const input = { args: [], headers: {} };

describe('liveness heartbeats (worker activity interceptor)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('beats for as long as an activity with a heartbeat timeout runs, and stops when it ends', async () => {
    const { ctx, heartbeat } = activityContext({ heartbeatTimeoutMs: 4_000 });
    const result = new LivenessHeartbeat(ctx).execute(input, slowActivity(10_000));
    await jest.advanceTimersByTimeAsync(10_000);
    await expect(result).resolves.toBe('done');
    // A beat each second from 1 s to 9 s (the activity ends at 10 s): never a gap of a whole timeout.
    expect(heartbeat).toHaveBeenCalledTimes(9);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(heartbeat).toHaveBeenCalledTimes(9);
  });

  it('stops beating when the activity fails', async () => {
    const { ctx, heartbeat } = activityContext({ heartbeatTimeoutMs: 1_000 });
    const failing = () => new Promise((_, reject) => setTimeout(() => reject(new Error('processor down')), 1_000));
    const result = new LivenessHeartbeat(ctx).execute(input, failing);
    const settled = expect(result).rejects.toThrow('processor down');
    await jest.advanceTimersByTimeAsync(1_000);
    await settled;
    const beats = heartbeat.mock.calls.length;
    expect(beats).toBeGreaterThan(0);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(heartbeat).toHaveBeenCalledTimes(beats);
  });

  it('leaves alone local activities and activities scheduled without a heartbeat timeout', async () => {
    for (const info of [{ isLocal: true, heartbeatTimeoutMs: 1_000 }, { heartbeatTimeoutMs: undefined }]) {
      const { ctx, heartbeat } = activityContext(info);
      const result = new LivenessHeartbeat(ctx).execute(input, slowActivity(5_000));
      await jest.advanceTimersByTimeAsync(5_000);
      await expect(result).resolves.toBe('done');
      expect(heartbeat).not.toHaveBeenCalled();
    }
  });

  it('beats four times per timeout, never more often than every 100 ms', () => {
    expect(heartbeatIntervalMs(5_000)).toBe(1_250);
    expect(heartbeatIntervalMs(200)).toBe(100);
  });
});
