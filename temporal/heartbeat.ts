import { Context } from '@temporalio/activity';
import type {
  ActivityExecuteInput,
  ActivityInboundCallsInterceptor,
  ActivityInterceptorsFactory,
  Next,
} from '@temporalio/worker';

/**
 * Liveness heartbeats: an activity scheduled with a heartbeat timeout heartbeats on its own for as
 * long as it runs, without the activity's code doing anything. A processor call can legitimately
 * take many seconds, so its start-to-close timeout cannot be short; a heartbeat timeout of a few
 * seconds is what lets the server notice a killed worker and hand the call to another worker in
 * seconds instead of after the whole start-to-close budget. The beat says only "this process is
 * alive", which is the fact the timeout is there to check. Local activities cannot heartbeat (they
 * live and die with their workflow task) and are left alone.
 */
export const livenessHeartbeats: ActivityInterceptorsFactory = (ctx) => ({
  inbound: new LivenessHeartbeat(ctx),
});

/** Beats several times per timeout: the SDK sends at most one per 0.8 × timeout, so none is missed. */
export function heartbeatIntervalMs(heartbeatTimeoutMs: number): number {
  return Math.max(100, Math.floor(heartbeatTimeoutMs / 4));
}

export class LivenessHeartbeat implements ActivityInboundCallsInterceptor {
  constructor(private readonly ctx: Pick<Context, 'info' | 'heartbeat'>) {}

  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const { isLocal, heartbeatTimeoutMs } = this.ctx.info;
    if (isLocal || !heartbeatTimeoutMs) return next(input);
    const timer = setInterval(() => this.ctx.heartbeat(), heartbeatIntervalMs(heartbeatTimeoutMs));
    try {
      return await next(input);
    } finally {
      clearInterval(timer);
    }
  }
}
