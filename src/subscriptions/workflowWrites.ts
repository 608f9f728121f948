import { createOrder } from '../commerce/orders';
import type { Db, Prisma } from '../db/prisma';
import {
  longestReattemptWindowMs,
  normalizeCardBrand,
  reattemptDecision,
  type RetryDecision,
} from '../domain/billingRetry';
import type { SubscriptionChargeReason, SubscriptionState } from '../domain/billingState';
import { newId } from '../domain/ids';
import { recordEvent } from '../events/recordEvent';
import { subscriptionOrderId } from './chargeLinks';
import { membershipRowFromState, subscriptionProgressFromState } from './projection';

/* The subscription workflow's writes (through its activities): its state, its paid charges, its dunning reattempts. */

type Tx = Prisma.TransactionClient;

export interface SaveSubscriptionStateInput {
  state: SubscriptionState;
  /** Names this write (made in the workflow): a retry after its commit finds it applied and writes nothing. */
  stateKey: string;
  eventType: string | null;
  properties: Record<string, unknown>;
}

export interface RecordSubscriptionChargeInput extends Omit<SaveSubscriptionStateInput, 'stateKey'> {
  eventType: string;
  /** The charge's key; it names the order (unique), so a retry finds its own order and no other. */
  chargeKey: string;
  paymentId: string | null;
  /** What was charged (after any switch credit), integer minor units. */
  amount: number;
  reason: SubscriptionChargeReason;
}

/** The card on the subscription's row: the portal writes it there first, then tells the workflow. */
export async function subscriptionCard(db: Db, subscriptionId: string): Promise<string | null> {
  const row = await db.subscription.findUnique({ where: { id: subscriptionId }, select: { paymentMethodId: true } });
  return row?.paymentMethodId ?? null;
}

/**
 * Writes the workflow's state to the subscriptions row (and its membership) plus one event, once
 * per state key. Answers the ids of the events recorded, to dispatch after commit.
 */
export async function saveSubscriptionState(db: Db, input: SaveSubscriptionStateInput): Promise<string[]> {
  return db.$transaction((tx) => writeState(tx, input));
}

async function writeState(tx: Tx, input: SaveSubscriptionStateInput): Promise<string[]> {
  const { state } = input;
  const applied = await tx.subscription.updateMany({
    where: { id: state.subscriptionId, OR: [{ lastStateKey: null }, { lastStateKey: { not: input.stateKey } }] },
    data: { ...subscriptionProgressFromState(state), lastStateKey: input.stateKey },
  });
  if (applied.count === 0) return [];
  await tx.membership.updateMany({
    where: { subscriptionId: state.subscriptionId },
    data: membershipRowFromState(state),
  });
  if (!input.eventType) return [];
  const event = await recordEvent(tx, {
    accountId: state.accountId,
    mode: state.mode,
    storeId: state.storeId,
    customerId: state.customerId,
    eventType: input.eventType,
    properties: { subscriptionId: state.subscriptionId, status: state.status, ...input.properties },
  });
  return [event.id];
}

/** quantity × unit price, as the subscription was sold (its price is unit amount × quantity). */
export function orderLineOf(state: Pick<SubscriptionState, 'price' | 'quantity'>): {
  quantity: number;
  unitAmount: number;
} {
  const unitAmount = state.price / state.quantity;
  // Always whole today (price = unit × quantity); a price that is not keeps the total exact on one line.
  return Number.isSafeInteger(unitAmount)
    ? { quantity: state.quantity, unitAmount }
    : { quantity: 1, unitAmount: state.price };
}

/**
 * A paid charge: the order, the row, membership credits and events in one transaction.
 * Idempotent by the charge key: a repeat finds the order it already wrote (and writes nothing
 * else); the unique index makes a concurrent second write fail (the activity retries).
 * Answers the order and the ids of the events recorded, to dispatch after commit.
 */
export async function recordSubscriptionCharge(
  db: Db,
  input: RecordSubscriptionChargeInput,
): Promise<{ orderId: string; eventIds: string[] }> {
  const { state } = input;
  const source = `subscription:${state.subscriptionId}`;
  return db.$transaction(async (tx) => {
    const existing = await tx.order.findUnique({ where: { chargeKey: input.chargeKey }, select: { id: true } });
    if (existing) return { orderId: existing.id, eventIds: [] };
    const product = await tx.product.findFirst({
      where: { id: state.productId, accountId: state.accountId, mode: state.mode },
    });
    const fullPrice = state.price;
    const order = await createOrder(tx, {
      accountId: state.accountId,
      mode: state.mode,
      storeId: state.storeId,
      customerId: state.customerId,
      currency: state.currency,
      status: 'paid',
      items: [
        {
          productName: product?.name ?? state.productId,
          ...orderLineOf(state),
          priceId: state.optionId,
          productId: state.productId,
          variantId: state.variantId,
        },
      ],
      subtotal: fullPrice,
      discountTotal: fullPrice - input.amount,
      paymentId: input.paymentId,
      source,
      chargeKey: input.chargeKey,
      subscriptionId: state.subscriptionId,
      id: subscriptionOrderId(state.accountId, state.mode, input.chargeKey),
    });
    // The payment names its order already when it was started by this code; one started
    // before (or a charge of 0, which has none) is linked here, with the order.
    if (input.paymentId)
      await tx.payment.updateMany({
        where: { id: input.paymentId },
        data: { orderId: order.id, subscriptionId: state.subscriptionId },
      });
    const stateEvents = await writeState(tx, {
      ...input,
      stateKey: input.chargeKey,
      properties: {
        ...input.properties,
        orderId: order.id,
        amount: input.amount,
        currency: state.currency,
        reason: input.reason,
      },
    });
    const orderEvent = await recordEvent(tx, {
      accountId: state.accountId,
      mode: state.mode,
      storeId: state.storeId,
      customerId: state.customerId,
      eventType: 's_order_paid',
      properties: {
        orderId: order.id,
        amount: input.amount,
        currency: state.currency,
        subscriptionId: state.subscriptionId,
      },
    });
    await topUpMembership(tx, state);
    return { orderId: order.id, eventIds: [...stateEvents, orderEvent.id] };
  });
}

/**
 * Counts a dunning reattempt against the card's network caps; records it when allowed.
 * Serialized per card by a row lock on the card's reattempt history (advisory lock).
 */
export async function reserveCardReattempt(
  db: Db,
  input: {
    /** The charge the reattempt is for: a retried reservation finds its row and spends nothing more. */
    chargeKey: string;
    accountId: string;
    mode: 'test' | 'live';
    subscriptionId: string;
    paymentMethodId: string;
    atMs: number;
    hardDeclined: boolean;
  },
): Promise<RetryDecision> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${input.paymentMethodId}))`;
    if (await tx.cardReattempt.findUnique({ where: { chargeKey: input.chargeKey }, select: { id: true } }))
      return { allowed: true };
    const instrument = await tx.paymentInstrument.findFirst({ where: { id: input.paymentMethodId } });
    const previous = await tx.cardReattempt.findMany({
      where: {
        paymentMethodId: input.paymentMethodId,
        attemptedAt: { gt: new Date(input.atMs - longestReattemptWindowMs) },
      },
      select: { attemptedAt: true },
    });
    const decision = reattemptDecision({
      brand: normalizeCardBrand(instrument?.brand),
      previousReattemptsMs: previous.map((row) => row.attemptedAt.getTime()),
      atMs: input.atMs,
      hardDecline: input.hardDeclined,
    });
    if (decision.allowed) {
      await tx.cardReattempt.create({
        data: {
          id: newId('cardReattempt'),
          accountId: input.accountId,
          mode: input.mode,
          paymentMethodId: input.paymentMethodId,
          subscriptionId: input.subscriptionId,
          attemptedAt: new Date(input.atMs),
          chargeKey: input.chargeKey,
        },
      });
    }
    return decision;
  });
}

/**
 * Each paid period of a membership's subscription adds its program's credits. A renewal keeps the
 * member's program; only a switch (the subscription now bills another price) moves the member,
 * to the program of that price in the same store (one program per price: unique index).
 */
async function topUpMembership(tx: Tx, state: SubscriptionState): Promise<void> {
  const membership = await tx.membership.findUnique({
    where: { subscriptionId: state.subscriptionId },
    include: { program: true },
  });
  if (!membership) return;
  const program =
    membership.program.optionId === state.optionId
      ? membership.program
      : ((await tx.membershipProgram.findFirst({
          where: { accountId: state.accountId, mode: state.mode, storeId: state.storeId, optionId: state.optionId },
        })) ?? membership.program);
  await tx.membership.update({
    where: { id: membership.id },
    data: { programId: program.id, creditsBalance: { increment: program.creditsPerRenewal } },
  });
}
