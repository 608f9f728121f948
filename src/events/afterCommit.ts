import { dispatchEventsNow, type DispatchDeps } from './dispatch';

/** Fans out events whose transaction has just committed. */
export type DispatchEvents = (eventIds: string[]) => Promise<void>;

/**
 * Dispatch right after commit, so receivers hear of a change at once rather than at the next
 * outbox sweep. A failure here loses nothing: the events stay unprocessed and the sweep
 * (workflows/events/outbox.ts) delivers them; so it is reported, never thrown. Without a Temporal
 * client (unit tests) it does nothing.
 */
export function dispatchAfterCommit(deps: DispatchDeps | null, onError: (error: unknown) => void): DispatchEvents {
  return async (eventIds) => {
    if (!deps || eventIds.length === 0) return;
    try {
      await dispatchEventsNow(deps, eventIds);
    } catch (error) {
      onError(error);
    }
  };
}
