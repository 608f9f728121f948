// Every workflow the worker runs. Workflow code is deterministic: workflow APIs only, no I/O.
export { maintenanceWorkflow } from './maintenance';
export { webhookDeliveryWorkflow } from './webhookDelivery';
export { eventOutboxWorkflow } from './eventOutbox';
export { checkoutExpiryWorkflow } from './checkoutExpiry';
export { subscriptionWorkflow } from './subscription';
export { paymentWorkflow } from './payment';
export { refundWorkflow } from './refund';
export { paymentSettlementWorkflow } from './paymentSettlement';
export { threeDsAuthenticationWorkflow } from './threeDsAuthentication';
