import { planPaymentThreeDs } from '../../src/threeds/paymentStep';
import type { PaymentThreeDsInput, ThreeDsPlan } from '../../src/threeds/workflowTypes';
import type { ActivityDeps } from '../deps';
import { eventDispatchOf } from '../events/outbox';

/** The payment workflow's 3DS step: which session, which values, or a new authentication. */
export function createThreeDsPaymentActivities(deps: ActivityDeps) {
  const dispatch = eventDispatchOf(deps);
  return {
    /** src/threeds/paymentStep.ts; repeat-safe (the session id derives from the payment id). */
    async planPaymentThreeDs(input: PaymentThreeDsInput): Promise<ThreeDsPlan> {
      return planPaymentThreeDs(deps.db, dispatch, input);
    },
  };
}
