import { dispatchEventsNow } from '../../src/events/dispatch';
import { payDueLinkFor } from '../../src/portal/payDueLink';
import {
  recordSubscriptionCharge,
  reserveCardReattempt,
  saveSubscriptionState,
  subscriptionCard,
  type RecordSubscriptionChargeInput,
  type SaveSubscriptionStateInput,
} from '../../src/subscriptions/workflowWrites';
import type { ActivityDeps } from '../deps';
import { emailNowOf } from '../events/mailer';

export type { RecordSubscriptionChargeInput, SaveSubscriptionStateInput } from '../../src/subscriptions/workflowWrites';

export function createSubscriptionActivities(deps: ActivityDeps) {
  /** Starts webhook delivery for committed events; a failure here is caught by the outbox sweep. */
  async function dispatchCommitted(eventIds: string[]): Promise<void> {
    if (!deps.temporal || eventIds.length === 0) return;
    try {
      await dispatchEventsNow(
        {
          db: deps.db,
          temporal: deps.temporal,
          taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
          emailNow: emailNowOf(deps),
        },
        eventIds,
      );
    } catch (error) {
      deps.logger.warn({ err: error, eventIds }, 'subscription event dispatch failed; the outbox sweep will retry');
    }
  }
  return {
    /** The card on the subscription's row: the portal writes it there first, then tells the workflow. */
    async readSubscriptionCard(subscriptionId: string): Promise<string | null> {
      return subscriptionCard(deps.db, subscriptionId);
    },

    /** The current time for workflow timers (workflow code may not read the clock). */
    async readClock(): Promise<number> {
      return Date.now();
    },

    /** Writes the workflow's state to the subscriptions row (and its membership) plus one event. */
    async saveSubscriptionState(input: SaveSubscriptionStateInput): Promise<void> {
      // A failed renewal's event carries the portal link the dunning e-mail gives the customer, to
      // pay the amount on-session (merchant-initiated renewals never step up themselves).
      const payLink =
        input.eventType === 's_subscription_payment_failed' && input.state.status === 'past_due'
          ? payDueLinkFor(deps.config, input.state, Date.now())
          : null;
      const withLink = payLink
        ? {
            ...input,
            properties: {
              ...input.properties,
              payOnSessionLink: payLink.link,
              payOnSessionLinkExpiresAt: payLink.expiresAt,
            },
          }
        : input;
      await dispatchCommitted(await saveSubscriptionState(deps.db, withLink));
    },

    /** A paid charge, once per charge key (src/subscriptions/workflowWrites.ts); its events dispatched after commit. */
    async recordSubscriptionCharge(input: RecordSubscriptionChargeInput): Promise<{ orderId: string }> {
      const { orderId, eventIds } = await recordSubscriptionCharge(deps.db, input);
      await dispatchCommitted(eventIds);
      return { orderId };
    },

    /** Counts a dunning reattempt against the card's network caps; records it when allowed. */
    async reserveCardReattempt(input: Parameters<typeof reserveCardReattempt>[1]) {
      return reserveCardReattempt(deps.db, input);
    },
  };
}
