import { z } from 'zod';
import { iso } from '../../commerce/schemas';
import '../core/openapi';

export const paymentSummarySchema = z.object({
  id: z.string(),
  status: z.string(),
  amount: z.number().int(),
  currency: z.string(),
});

const attemptSchema = z.object({
  id: z.string(),
  attemptNumber: z.number().int(),
  processorId: z.string(),
  outcome: z.string(),
  errorCode: z.string().nullable(),
  category: z.string().nullable(),
  message: z.string().nullable(),
  processorReference: z.string().nullable(),
  createdAt: z.string(),
});
const refundSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.string(),
  reason: z.string().nullable(),
  failureCode: z.string().nullable(),
  createdAt: z.string(),
});
export const disputeSchema = z
  .object({
    id: z.string(),
    paymentId: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    status: z.string(),
    reason: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Dispute');

export const paymentSchema = paymentSummarySchema
  .extend({
    intent: z.string(),
    amountCaptured: z.number().int(),
    amountRefunded: z.number().int(),
    storeId: z.string(),
    customerId: z.string().nullable(),
    orderId: z.string().nullable().openapi({
      description:
        "The order this payment paid: a checkout session's, the pending order payments/process named, or a subscription charge's (set from the charge's start; null when it was declined)",
    }),
    subscriptionId: z.string().nullable().openapi({
      description: 'The subscription whose charge (first, renewal, retry, switch) this payment is; null otherwise',
    }),
    checkoutSessionId: z.string().nullable(),
    paymentInstrumentId: z.string().nullable(),
    paymentFlowId: z.string().nullable(),
    processorId: z.string().nullable(),
    initiatedBy: z.string(),
    source: z.string().nullable(),
    declineCode: z.string().nullable(),
    declineCategory: z.string().nullable(),
    declineMessage: z.string().nullable(),
    redirectUrl: z.string().nullable(),
    ipRulesEvaluated: z.boolean().nullable().openapi({
      description:
        "true: the account's IP block rules were checked against the request's customerIp; false: there were IP rules but no customerIp, so they did not match; null: no IP rule was in force",
    }),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Payment');

export const paymentDetailSchema = paymentSchema
  .extend({ attempts: z.array(attemptSchema), refunds: z.array(refundSchema), disputes: z.array(disputeSchema) })
  .openapi('PaymentDetail');

export const processPaymentResponseSchema = z
  .object({
    payment: paymentSummarySchema,
    order: z
      .object({ id: z.string(), status: z.string(), totalAmount: z.number().int(), currency: z.string() })
      .nullable(),
    redirectUrl: z.string().nullable(),
  })
  .openapi('PaymentResult');

export const refundResultSchema = refundSchema
  .extend({ paymentId: z.string(), payment: paymentSummarySchema })
  .openapi('RefundResult');

type PaymentRow = {
  id: string;
  status: string;
  amount: number;
  currency: string;
  intent: string;
  amountCaptured: number;
  amountRefunded: number;
  storeId: string;
  customerId: string | null;
  orderId: string | null;
  subscriptionId?: string | null;
  checkoutSessionId: string | null;
  paymentInstrumentId: string | null;
  paymentFlowId: string | null;
  processorId: string | null;
  initiatedBy: string;
  source: string | null;
  declineCode: string | null;
  declineCategory: string | null;
  declineMessage: string | null;
  redirectUrl: string | null;
  ipRulesEvaluated?: boolean | null;
  mode: 'test' | 'live';
  createdAt: Date;
  updatedAt: Date;
};

/** The public view of a payment: drops processor references, client IP and metadata. */
export function toPublicPayment(row: PaymentRow): z.infer<typeof paymentSchema> {
  return {
    id: row.id,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    intent: row.intent,
    amountCaptured: row.amountCaptured,
    amountRefunded: row.amountRefunded,
    storeId: row.storeId,
    customerId: row.customerId,
    orderId: row.orderId,
    subscriptionId: row.subscriptionId ?? null,
    checkoutSessionId: row.checkoutSessionId,
    paymentInstrumentId: row.paymentInstrumentId,
    paymentFlowId: row.paymentFlowId,
    processorId: row.processorId,
    initiatedBy: row.initiatedBy,
    source: row.source,
    declineCode: row.declineCode,
    declineCategory: row.declineCategory,
    declineMessage: row.declineMessage,
    redirectUrl: row.redirectUrl,
    ipRulesEvaluated: row.ipRulesEvaluated ?? null,
    mode: row.mode,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function toPublicDispute(row: {
  id: string;
  paymentId: string;
  amount: number;
  currency: string;
  status: string;
  reason: string | null;
  createdAt: Date;
  updatedAt: Date;
}) {
  return { ...row, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) };
}
