import { ApplicationFailure, patched, proxyLocalActivities, setHandler, uuid4 } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { localRead } from '../shared/activityOptions';
import { nextBillingAtMs } from '../../src/domain/billingState';
import {
  type CancelRequest,
  type CustomerCancelRequest,
  type CustomerChangeRequest,
  type ResumeRequest,
  type SkipRequest,
  cancelSubscriptionUpdate,
  customerCancelUpdate,
  pauseSubscriptionUpdate,
  paymentMethodChangedSignal,
  resumeSubscriptionUpdate,
  skipNextDateUpdate,
  subscriptionStateQuery,
  switchOptionUpdate,
  withdrawCancelUpdate,
} from './messages';
import { assertCanSkip, assertCanSwitch, assertCanWithdrawCancel, assertCustomerCanCancel } from './guards';
import { registerPayDueOnSession } from './recover';
import type { SubscriptionRun } from './run';
import { switchSubscription } from './switch';

const { readSubscriptionCard } = proxyLocalActivities<Activities>(localRead);

/** Histories from before it took the card from the signal; newer runs read it from the row. */
const cardReadFromRowPatch = 'subscription-card-read-from-row';

/** The customers' and merchants' changes: updates (with validators) and the card signal, each run exclusively. */
export function registerChangeHandlers(run: SubscriptionRun): void {
  setHandler(subscriptionStateQuery, () => run.state);
  registerCancelHandlers(run);
  registerScheduleHandlers(run);
  registerPaymentHandlers(run);
}

function registerCancelHandlers(run: SubscriptionRun): void {
  const { state, exclusive, chargeInFlight } = run;
  setHandler(cancelSubscriptionUpdate, (request) => exclusive(() => run.cancel(request)), {
    validator: (_request: CancelRequest) => run.assertCan('canceled'),
  });

  // The portal's own cancel and resume: refused while a charge is in flight (not queued behind it).
  setHandler(customerCancelUpdate, (request) => exclusive(() => run.cancel({ ...request, reasonId: null })), {
    validator: (_request: CustomerCancelRequest) => assertCustomerCanCancel(state, chargeInFlight()),
  });

  setHandler(
    withdrawCancelUpdate,
    (_request) =>
      exclusive(async () => {
        assertCanWithdrawCancel(state, null);
        state.cancelAtPeriodEnd = false;
        state.cancelReasonId = null;
        await run.persist('s_subscription_resumed', {
          automatic: false,
          cancelWithdrawn: true,
          nextBillingAt: new Date(nextBillingAtMs(state)).toISOString(),
        });
        return state;
      }),
    { validator: (_request: CustomerChangeRequest) => assertCanWithdrawCancel(state, chargeInFlight()) },
  );
}

function registerScheduleHandlers(run: SubscriptionRun): void {
  const { state, exclusive } = run;
  setHandler(
    pauseSubscriptionUpdate,
    (request) =>
      exclusive(async () => {
        run.assertCan('paused');
        run.move('paused');
        state.pausedUntilMs = request.untilMs;
        await run.persist('s_subscription_paused', { pausedUntil: new Date(request.untilMs).toISOString() });
        return state;
      }),
    {
      validator: (request) => {
        run.assertCan('paused');
        if (!(request.untilMs > request.atMs))
          throw ApplicationFailure.nonRetryable('pause end must be in the future', 'InvalidRequest');
      },
    },
  );

  setHandler(
    resumeSubscriptionUpdate,
    (request) =>
      exclusive(async () => {
        run.assertCan('resumed');
        await run.resumeAt(request.atMs, false);
        return state;
      }),
    { validator: (_request: ResumeRequest) => run.assertCan('resumed') },
  );

  setHandler(
    skipNextDateUpdate,
    (request) =>
      exclusive(async () => {
        assertCanSkip(state, request);
        const skipped = nextBillingAtMs(state);
        state.skippedDatesMs = [...state.skippedDatesMs, skipped];
        state.cycle += 1;
        await run.persist('s_subscription_updated', {
          change: 'date_skipped',
          skippedDate: new Date(skipped).toISOString(),
        });
        return state;
      }),
    { validator: (request: SkipRequest) => assertCanSkip(state, request) },
  );
}

function registerPaymentHandlers(run: SubscriptionRun): void {
  const { state, exclusive, chargeInFlight } = run;
  // The handler marks the switch in flight synchronously, right after its validator accepted it and
  // before the next update's validator runs, so a second switch is refused, never queued to charge.
  setHandler(
    switchOptionUpdate,
    async (request) => {
      assertCanSwitch(state, request, chargeInFlight());
      run.switchingTo = request.optionId;
      try {
        return await exclusive(() => switchSubscription(state, request, uuid4()));
      } finally {
        run.switchingTo = null;
      }
    },
    { validator: (request) => assertCanSwitch(state, request, chargeInFlight()) },
  );

  registerPayDueOnSession(state, chargeInFlight, exclusive, (paying) => (run.payingDue = paying));

  // The row holds the card (the portal writes it, then signals): read it there, so that of two
  // changes signalled out of order the workflow ends on the one committed last, as the row does.
  setHandler(paymentMethodChangedSignal, ({ paymentMethodId: signalled }) =>
    exclusive(async () => {
      const paymentMethodId = patched(cardReadFromRowPatch)
        ? ((await readSubscriptionCard(state.subscriptionId)) ?? signalled)
        : signalled;
      if (state.paymentMethodId === paymentMethodId) return;
      state.paymentMethodId = paymentMethodId;
      await run.persist('s_subscription_updated', { change: 'payment_method', paymentMethodId });
    }),
  );
}
