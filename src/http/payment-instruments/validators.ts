import { z } from 'zod';
import { idOf, idParam } from '../../commerce/schemas';

/** The stored card as the API shows it: never the PAN, never the CVC. */
export const paymentInstrumentSchema = z
  .object({
    id: z.string(),
    customerId: z.string(),
    type: z.literal('card'),
    brand: z.string(),
    last4: z.string(),
    bin: z.string(),
    expMonth: z.number().int(),
    expYear: z.number().int(),
    issuingCountry: z.string().nullable(),
    cardholderName: z.string().nullable(),
    fingerprint: z.string().openapi({ description: 'Same card, same value (keyed hash; not reversible)' }),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
  })
  .openapi('PaymentInstrument');
export type PaymentInstrumentOut = z.infer<typeof paymentInstrumentSchema>;

const expMonth = z.number().int().min(1).max(12);
const expYear = z.number().int().min(2000).max(2100);
const cardholderName = z.string().trim().min(1).max(100);

export const cardInputSchema = z
  .object({
    // Spaces and dashes as people type them are allowed; zod messages never echo the value.
    number: z
      .string()
      .transform((value) => value.replace(/[\s-]/g, ''))
      .pipe(z.string().regex(/^\d{12,19}$/, 'card number must be 12 to 19 digits')),
    expMonth,
    expYear,
    cvc: z
      .string()
      .regex(/^\d{3,4}$/, 'cvc must be 3 or 4 digits')
      .openapi({ description: 'Checked for shape, never stored' }),
    cardholderName: cardholderName
      .optional()
      .openapi({ description: 'Name on the card, as the response and update call it' }),
    holderName: cardholderName.optional().openapi({ description: 'Older alias of cardholderName', deprecated: true }),
  })
  .strict()
  .refine((card) => !card.cardholderName || !card.holderName || card.cardholderName === card.holderName, {
    path: ['holderName'],
    message: 'give cardholderName or its alias holderName, not two different names',
  })
  .transform(({ holderName, ...card }) => ({ ...card, cardholderName: card.cardholderName ?? holderName }));

export const createPaymentInstrumentSchema = z.object({ customerId: idOf('cus'), card: cardInputSchema }).strict();

export const updatePaymentInstrumentSchema = z
  .object({
    id: idOf('pi'),
    data: z.object({ expMonth, expYear, cardholderName: cardholderName.nullable() }).partial().strict(),
  })
  .strict();

export const paymentInstrumentParams = idParam('paymentInstrumentId', 'pi');
export const customerInstrumentsParams = idParam('customerId', 'cus');

export function toPublicPaymentInstrument(row: {
  id: string;
  customerId: string;
  brand: string;
  last4: string;
  bin: string;
  expMonth: number;
  expYear: number;
  issuingCountry: string | null;
  cardholderName: string | null;
  fingerprint: string;
  mode: 'test' | 'live';
  createdAt: Date;
}): PaymentInstrumentOut {
  return {
    id: row.id,
    customerId: row.customerId,
    type: 'card',
    brand: row.brand,
    last4: row.last4,
    bin: row.bin,
    expMonth: row.expMonth,
    expYear: row.expYear,
    issuingCountry: row.issuingCountry,
    cardholderName: row.cardholderName,
    fingerprint: row.fingerprint,
    mode: row.mode,
    createdAt: row.createdAt.toISOString(),
  };
}
