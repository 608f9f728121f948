import { z } from 'zod';
import { idParam } from '../../commerce/schemas';
import { fullName } from '../customers/validators';

const orderItemSchema = z.object({
  id: z.string(),
  quantity: z.number().int(),
  unitAmount: z.number().int(),
  totalAmount: z.number().int(),
  priceId: z.string().nullable(),
  productId: z.string().nullable(),
  variantId: z.string().nullable(),
  orderLineItemProduct: z.object({ name: z.string().openapi({ description: 'Product name when the order was made' }) }),
});

export const orderSchema = z
  .object({
    id: z.string(),
    status: z.string(),
    storeId: z.string(),
    customerId: z.string(),
    checkoutSessionId: z.string().nullable(),
    paymentId: z.string().nullable(),
    subtotal: z.number().int(),
    discountTotal: z.number().int(),
    totalAmount: z.number().int().openapi({ description: 'Minor units' }),
    currency: z.string(),
    source: z.string().nullable(),
    subscriptionId: z.string().nullable().openapi({
      description: 'The subscription whose charge this order records (filter orders/list by it); null otherwise',
    }),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
    customer: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }),
    items: z.array(orderItemSchema),
  })
  .openapi('Order');

export const orderPaymentSchema = z
  .object({
    id: z.string(),
    status: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    createdAt: z.string().optional(),
  })
  .openapi('OrderPayment');

export const orderWithPaymentsSchema = z
  .object({ order: orderSchema.extend({ payments: z.array(orderPaymentSchema) }) })
  .openapi('OrderResponse');

export const orderParams = idParam('orderId', 'ord');

export function toPublicOrder(row: {
  id: string;
  status: string;
  storeId: string;
  customerId: string;
  checkoutSessionId: string | null;
  paymentId: string | null;
  subtotal: number;
  discountTotal: number;
  totalAmount: number;
  currency: string;
  source: string | null;
  subscriptionId?: string | null;
  mode: 'test' | 'live';
  createdAt: Date;
  customer: { id: string; email: string; firstName: string | null; lastName: string | null };
  items: {
    id: string;
    quantity: number;
    unitAmount: number;
    totalAmount: number;
    priceId: string | null;
    productId: string | null;
    variantId: string | null;
    productName: string;
  }[];
}) {
  return {
    id: row.id,
    status: row.status,
    storeId: row.storeId,
    customerId: row.customerId,
    checkoutSessionId: row.checkoutSessionId,
    paymentId: row.paymentId,
    subtotal: row.subtotal,
    discountTotal: row.discountTotal,
    totalAmount: row.totalAmount,
    currency: row.currency,
    source: row.source,
    subscriptionId: row.subscriptionId ?? null,
    mode: row.mode,
    createdAt: row.createdAt.toISOString(),
    customer: { id: row.customer.id, email: row.customer.email, name: fullName(row.customer) },
    items: row.items.map((item) => ({
      id: item.id,
      quantity: item.quantity,
      unitAmount: item.unitAmount,
      totalAmount: item.totalAmount,
      priceId: item.priceId,
      productId: item.productId,
      variantId: item.variantId,
      orderLineItemProduct: { name: item.productName },
    })),
  };
}
