import { z } from 'zod';
import type { Payment, Refund } from '../../generated/prisma/client';
import { idParam, iso } from '../../commerce/schemas';
import '../core/openapi';
import { paymentSummarySchema } from '../payments/views';

export const refundParams = idParam('refundId', 're');

export const refundSchema = z
  .object({
    id: z.string(),
    paymentId: z.string(),
    amount: z.number().int().openapi({ description: 'Minor units of currency' }),
    currency: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']).openapi({
      description: 'pending: the processor confirms later (a webhook settles it); failed: refused, nothing refunded',
    }),
    reason: z.string().nullable(),
    failureCode: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    payment: paymentSummarySchema.openapi({ description: 'The refunded payment as it stands now' }),
  })
  .openapi('Refund');

/** A refund with the payment it refunds (as it stands now). */
export function toPublicRefund(
  row: Refund & { payment: Pick<Payment, 'id' | 'status' | 'amount' | 'currency'> },
): z.input<typeof refundSchema> {
  return {
    id: row.id,
    paymentId: row.paymentId,
    amount: row.amount,
    currency: row.currency,
    status: row.status as z.infer<typeof refundSchema>['status'],
    reason: row.reason,
    failureCode: row.failureCode,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    payment: row.payment,
  };
}
