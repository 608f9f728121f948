export {
  createPaymentClient,
  type ApiErrorBody,
  type PaymentClient,
  type PaymentClientOptions,
  type Schemas,
} from './client';
export {
  verifyWebhook,
  webhookSignatureHeader,
  type VerifyWebhookOptions,
  type VerifyWebhookResult,
  type WebhookEvent,
} from './webhooks';
export type { components, paths } from './generated/api';
