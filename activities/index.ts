import type { ActivityDeps } from './deps';
import { createEmailActivities } from './events/email';
import { createEventActivities } from './events/outbox';
import { createMaintenanceActivities } from './maintenance/sweeps';
import { createPaymentPrepareActivities } from './payments/prepare';
import { createPaymentAuthorizeActivities } from './payments/authorize';
import { createPaymentStepUpActivities } from './payments/stepUp';
import { createPaymentFinalizeActivities } from './payments/finalize';
import { createPaymentSettlementActivities } from './payments/settlement';
import { createPaymentRefundActivities } from './payments/refund';
import { createFollowUpConfirmationActivities } from './payments/confirmation';
import { createSubscriptionActivities } from './subscriptions/state';
import { createSubscriptionChargeActivities } from './subscriptions/charge';
import { createThreeDsActivities } from './threeds/authentication';
import { createThreeDsPaymentActivities } from './payments/threeDs';
import { createWebhookActivities } from './webhooks/delivery';
import { createFunnelActivities } from './funnels/session';
import { createDomainActivities } from './domains/recheck';

export type { ActivityDeps } from './deps';

/** Every activity the worker registers, built from injected dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createMaintenanceActivities(deps),
    ...createEventActivities(deps),
    ...createEmailActivities(deps),
    ...createWebhookActivities(deps),
    ...createSubscriptionActivities(deps),
    ...createSubscriptionChargeActivities(deps),
    ...createPaymentPrepareActivities(deps),
    ...createPaymentAuthorizeActivities(deps),
    ...createPaymentStepUpActivities(deps),
    ...createPaymentFinalizeActivities(deps),
    ...createPaymentSettlementActivities(deps),
    ...createPaymentRefundActivities(deps),
    ...createFollowUpConfirmationActivities(deps),
    ...createThreeDsActivities(deps),
    ...createThreeDsPaymentActivities(deps),
    ...createFunnelActivities(deps),
    ...createDomainActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
