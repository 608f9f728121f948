import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import { readPage, scopedPageArgs } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import type { PaymentInstrument } from '../generated/prisma/client';
import { cardBrandOf, hasValidLengthForBrand, issuingCountryOf } from '../domain/cardBrand';
import { newId } from '../domain/ids';
import { isExpiryInFuture, passesLuhn } from '../domain/luhn';
import { invalid, orNotFound } from '../errors';
import { encryptPan, panFingerprint, type KeySource } from '../vault/cardVault';
import { findCustomer } from './customers';
import type { Scope } from './scope';

export const paymentInstrumentList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    customerId: { kind: 'id', prefix: 'cus' },
    brand: { kind: 'string' },
    last4: { kind: 'string' },
    createdAt: { kind: 'date' },
  },
};

/** A card as typed in (digits only); the CVC is checked by the validator and never reaches this module. */
export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cardholderName?: string;
}

function assertNotExpired(expMonth: number, expYear: number): void {
  if (!isExpiryInFuture(expMonth, expYear, new Date()))
    throw invalid('Card has expired: expiry must be this month or later', 'CARD_EXPIRED');
}

/** Stores a card for one of the caller's customers: the PAN encrypted at rest with a keyed fingerprint beside it. */
export async function tokenizeCard(
  db: Db,
  vault: KeySource,
  scope: Scope,
  input: { customerId: string; card: CardInput; id?: string },
): Promise<PaymentInstrument> {
  const { number: pan, expMonth, expYear, cardholderName } = input.card;
  if (!passesLuhn(pan) || !hasValidLengthForBrand(pan))
    throw invalid('Card number is not valid (failed the Luhn check or has a wrong length)', 'INVALID_CARD_NUMBER');
  assertNotExpired(expMonth, expYear);
  const customer = await findCustomer(db, scope, input.customerId);
  // A derived id (the hosted page's, one per form) makes a repeated post find its card instead of vaulting another.
  const id = input.id ?? newId('paymentInstrument');
  return db.paymentInstrument.create({
    data: {
      id,
      ...scope,
      customerId: customer.id,
      brand: cardBrandOf(pan),
      last4: pan.slice(-4),
      bin: pan.slice(0, 6),
      expMonth,
      expYear,
      issuingCountry: issuingCountryOf(pan),
      cardholderName: cardholderName ?? null,
      encryptedPan: encryptPan(pan, id, vault),
      fingerprint: panFingerprint(pan, vault),
    },
  });
}

export async function listPaymentInstruments(db: Db, scope: Scope, query: ListQuery): Promise<Page<PaymentInstrument>> {
  const args = scopedPageArgs<Prisma.PaymentInstrumentFindManyArgs>(scope, query);
  return readPage(db.paymentInstrument.findMany(args), db.paymentInstrument.count({ where: args.where }));
}

/** A payment instrument of the caller's account and mode, or not_found. */
export async function findPaymentInstrument(db: Db, scope: Scope, instrumentId: string): Promise<PaymentInstrument> {
  return orNotFound(
    await db.paymentInstrument.findFirst({ where: { id: instrumentId, ...scope } }),
    'Payment instrument',
  );
}

/** New expiry after a reissue (never one in the past) or cardholder name; the card number never changes. */
export async function updatePaymentInstrument(
  db: Db,
  scope: Scope,
  instrumentId: string,
  data: { expMonth?: number; expYear?: number; cardholderName?: string | null },
): Promise<PaymentInstrument> {
  const existing = await findPaymentInstrument(db, scope, instrumentId);
  assertNotExpired(data.expMonth ?? existing.expMonth, data.expYear ?? existing.expYear);
  return db.paymentInstrument.update({ where: { id: existing.id }, data });
}

/** A customer's cards, newest first; the customer must be the caller's (not_found otherwise). */
export async function instrumentsOfCustomer(db: Db, scope: Scope, customerId: string): Promise<PaymentInstrument[]> {
  const customer = await findCustomer(db, scope, customerId);
  return db.paymentInstrument.findMany({
    where: { customerId: customer.id, ...scope },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}
