import { dispatchAfterCommit, type DispatchEvents } from '../../src/events/afterCommit';
import { dispatchEventsNow } from '../../src/events/dispatch';
import { undispatchedEventIds } from '../../src/events/undispatched';
import type { ActivityDeps } from '../deps';
import { emailNowOf } from './mailer';

/** For activities that record events: dispatch them right after commit (the sweep covers a failure). */
export function eventDispatchOf(deps: ActivityDeps): DispatchEvents {
  const dispatchDeps = deps.temporal
    ? { db: deps.db, temporal: deps.temporal, taskQueue: deps.config.TEMPORAL_TASK_QUEUE }
    : null;
  return dispatchAfterCommit(dispatchDeps, (error) =>
    deps.logger.warn({ err: error }, 'event dispatch after commit failed; the outbox sweep will deliver'),
  );
}

/** Events younger than this are left to their own dispatch; the sweep only catches lost ones. */
const outboxGraceMs = 10_000;

export function createEventActivities(deps: ActivityDeps) {
  function dispatchDeps() {
    if (!deps.temporal) throw new Error('event dispatch needs a Temporal client in ActivityDeps.temporal');
    return { db: deps.db, temporal: deps.temporal, taskQueue: deps.config.TEMPORAL_TASK_QUEUE };
  }
  return {
    /**
     * Starts one delivery workflow per (event, subscribed enabled endpoint) and sends the events'
     * customer e-mails (a workflow each only for one whose send failed); repeat-safe.
     */
    async dispatchEvents(eventIds: string[]): Promise<{ started: number }> {
      const { started } = await dispatchEventsNow({ ...dispatchDeps(), emailNow: emailNowOf(deps) }, eventIds);
      return { started };
    },

    /** The outbox sweep: dispatches events committed but never dispatched (of one account if given); returns how many. */
    async dispatchUndispatchedEvents(scope: { accountId?: string } = {}): Promise<number> {
      const ids = await undispatchedEventIds(deps.db, outboxGraceMs, 500, scope.accountId);
      if (ids.length === 0) return 0;
      await dispatchEventsNow(dispatchDeps(), ids);
      deps.logger.info({ count: ids.length }, 'outbox sweep dispatched events');
      return ids.length;
    },
  };
}
