// Every workflow the worker runs. Workflow code is deterministic: workflow APIs only, no I/O.
export { maintenanceWorkflow } from './maintenance/idempotencySweep';
export { webhookDeliveryWorkflow } from './webhooks/delivery';
export { eventOutboxWorkflow } from './events/outbox';
export { eventEmailWorkflow } from './events/email';
export { checkoutExpiryWorkflow } from './commerce/checkoutExpiry';
export { subscriptionWorkflow } from './subscriptions/subscription';
export { paymentWorkflow } from './payments/payment';
export { refundWorkflow } from './payments/refund';
export { paymentSettlementWorkflow } from './payments/settlement';
export { threeDsAuthenticationWorkflow } from './threeds/authentication';
export { funnelSessionWorkflow } from './funnels/session';
export { domainRecheckWorkflow } from './domains/recheck';
