import { z } from 'zod';
import { idOf } from '../../commerce/schemas';
import {
  authenticationTypes,
  defaultMessageVersion,
  dsTransIdRequired,
  ecPattern,
  messageVersionPattern,
  sessionTypes,
  transStatuses,
} from '../../threeds/rules';

const transactionId = (name: string) =>
  z.string().min(1, `${name} must be 1-36 characters`).max(36, `${name} must be 1-36 characters`);

/** POST /threeds/create-from-values: exactly the fields of docs/threeds.md; unknown properties are refused. */
export const createFromValuesSchema = z
  .object({
    eci: z.string().regex(ecPattern, 'eci must be exactly two digits'),
    authenticationValue: z
      .string()
      .min(1, 'authenticationValue must be 1-128 characters')
      .max(128, 'authenticationValue must be 1-128 characters'),
    transStatus: z.enum(transStatuses).default('Y'),
    dsTransID: transactionId('dsTransID').optional(),
    acsTransID: transactionId('acsTransID').optional(),
    threeDSServerTransID: transactionId('threeDSServerTransID').optional(),
    messageVersion: z
      .string()
      .regex(messageVersionPattern, 'messageVersion must be 1.0.2 or 2.d.d (one digit per part, e.g. 2.2.0)')
      .default(defaultMessageVersion),
    cardBrand: z.string().min(1).max(32, 'cardBrand must be at most 32 characters').optional(),
    type: z.enum(sessionTypes).default('customer'),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (!body.dsTransID && dsTransIdRequired(body.messageVersion, body.transStatus)) {
      ctx.addIssue({
        code: 'custom',
        path: ['dsTransID'],
        message: `dsTransID is required for a 3DS ${body.messageVersion} result with transStatus ${body.transStatus} (the acquirer rejects it otherwise)`,
      });
    }
  })
  .openapi('ThreeDsCreateFromValues');
export type CreateFromValuesInput = z.infer<typeof createFromValuesSchema>;

/** A calendar date YYYY-MM-DD that exists (2030-02-30 does not; Date.parse would roll it to March). */
function isCalendarDate(value: string): boolean {
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * recurringInfo: `frequency` is the minimum number of days between
 * two charges (EMV 3DS recurringFrequency, 1-366 here) and `expiry` the date after which no
 * further charge is authorised (EMV recurringExpiry, YYYY-MM-DD, a real date after today).
 */
export const recurringInfoSchema = z
  .object({
    frequency: z.number().int().min(1).max(366),
    expiry: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'expiry must be a date YYYY-MM-DD')
      .refine(isCalendarDate, 'expiry must be a real calendar date')
      .refine((value) => value > todayUtc(), 'expiry must be after today'),
  })
  .strict()
  .openapi('ThreeDsRecurringInfo');
export type RecurringInfo = z.infer<typeof recurringInfoSchema>;

// Answers show what was stored, whose expiry may have passed since.
const recurringInfoView = z
  .object({ frequency: z.number().int(), expiry: z.string() })
  .openapi('ThreeDsRecurringInfoView');

const shortString = z.string().min(1).max(128);

export const processorConfigSchema = z
  .object({
    merchantId: shortString,
    mcc: z.string().regex(/^\d{4}$/, 'mcc must be 4 digits'),
    merchantName: shortString,
    merchantCountryCode: z
      .string()
      .regex(/^\d{3}$|^[A-Z]{2}$/, 'merchantCountryCode must be ISO 3166 numeric (3 digits) or alpha-2'),
    acquirerBinVisa: z.string().max(11),
    acquirerBinMastercard: z.string().max(11),
    acquirerBinAmex: z.string().max(11),
    acquirerBinDiscover: z.string().max(11),
    acquirerBin: z.string().max(11),
    merchantUrl: z.string().url().max(2048),
  })
  .partial()
  .strict();

/**
 * POST /threeds/authenticate. Which session: `sessionId` (an existing pending
 * session, e.g. from create-merchant-session) or `paymentInstrumentId` (a new customer session
 * for that card). `returnUrl` is where the browser goes after a challenge.
 */
export const authenticateSchema = z
  .object({
    sessionId: idOf('3ds').optional(),
    paymentInstrumentId: idOf('pi').optional(),
    storeId: idOf('store').optional(),
    processorConfig: processorConfigSchema.optional(),
    purchaseInfo: z.object({ amount: z.number().int().min(0), currency: z.string().regex(/^[A-Z]{3}$/) }).strict(),
    cardholderInfo: z
      .object({ name: z.string().min(1).max(45).optional(), email: z.string().email().max(254).optional() })
      .strict()
      .optional(),
    challengePreference: z
      .enum(['no-preference', 'no-challenge', 'challenge-requested', 'challenge-mandated'])
      .optional(),
    authenticationType: z.enum(authenticationTypes).default('payment-transaction'),
    recurringInfo: recurringInfoSchema.optional(),
    // The browser is redirected there: only web pages, never javascript: or data: URLs.
    returnUrl: z
      .url({ protocol: /^https?$/, error: 'returnUrl must be an http or https URL' })
      .max(2048)
      .optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (!body.sessionId === !body.paymentInstrumentId) {
      ctx.addIssue({
        code: 'custom',
        path: ['sessionId'],
        message: 'give exactly one of sessionId or paymentInstrumentId',
      });
    }
    if (body.authenticationType === 'recurring-transaction' && !body.recurringInfo) {
      ctx.addIssue({
        code: 'custom',
        path: ['recurringInfo'],
        message: 'recurringInfo {frequency, expiry} is required with authenticationType recurring-transaction',
      });
    }
  })
  .openapi('ThreeDsAuthenticate');
export type AuthenticateInput = z.infer<typeof authenticateSchema>;

export const createMerchantSessionSchema = z
  .object({
    tokenId: z.string().min(1).max(128),
    paymentInstrumentId: idOf('pi'),
    storeId: idOf('store'),
  })
  .strict()
  .openapi('ThreeDsCreateMerchantSession');

export const threeDsSessionSchema = z
  .object({
    id: z.string(),
    type: z.enum(sessionTypes),
    status: z.enum(['pending', 'challenge_required', 'authenticated', 'failed']),
    source: z.string(),
    eci: z.string().nullable(),
    authenticationValue: z.string().nullable(),
    transStatus: z.string().nullable(),
    dsTransID: z.string().nullable(),
    acsTransID: z.string().nullable(),
    threeDSServerTransID: z.string().nullable(),
    messageVersion: z.string().nullable(),
    cardBrand: z.string().nullable(),
    authenticationType: z.string().nullable(),
    recurringInfo: recurringInfoView.nullable(),
    paymentInstrumentId: z.string().nullable(),
    storeId: z.string().nullable(),
    paymentId: z.string().nullable(),
    /** The challenge page to send the cardholder to (status challenge_required). */
    redirectUrl: z.string().nullable(),
    failureReason: z.string().nullable(),
    expiresAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('ThreeDsSession');
export type ThreeDsSessionOut = z.infer<typeof threeDsSessionSchema>;

export const sessionParams = z.object({ id: idOf('3ds') });
