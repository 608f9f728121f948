import type { ActivityDeps } from './deps';
import { createEventActivities } from './events';
import { createMaintenanceActivities } from './maintenance';
import { createPaymentActivities } from './payments';
import { createPaymentAuthorizeActivities } from './paymentsAuthorize';
import { createPaymentFinalizeActivities } from './paymentsFinalize';
import { createPaymentSettlementActivities } from './paymentsFollowUp';
import { createPaymentRefundActivities } from './paymentsRefund';
import { createSubscriptionActivities } from './subscriptions';
import { createSubscriptionChargeActivities } from './subscriptionsCharge';
import { createThreeDsActivities } from './threeDs';
import { createThreeDsPaymentActivities } from './threeDsPayment';
import { createWebhookActivities } from './webhooks';

export type { ActivityDeps } from './deps';

/** Every activity the worker registers, built from injected dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createMaintenanceActivities(deps),
    ...createEventActivities(deps),
    ...createWebhookActivities(deps),
    ...createSubscriptionActivities(deps),
    ...createSubscriptionChargeActivities(deps),
    ...createPaymentActivities(deps),
    ...createPaymentAuthorizeActivities(deps),
    ...createPaymentFinalizeActivities(deps),
    ...createPaymentSettlementActivities(deps),
    ...createPaymentRefundActivities(deps),
    ...createThreeDsActivities(deps),
    ...createThreeDsPaymentActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
