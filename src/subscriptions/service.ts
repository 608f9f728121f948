import type { Client } from '@temporalio/client';
import type { Db, Prisma } from '../db/prisma';
import type { Scope } from '../commerce/scope';
import type { BillingInterval } from '../domain/billing';
import type { SubscriptionState } from '../domain/billingState';
import { maxAmount } from '../domain/checkoutTotals';
import { newId } from '../domain/ids';
import { dispatchEventsNow } from '../events/dispatch';
import { recordEvent } from '../events/recordEvent';
import type { Logger } from '../logging/logger';
import { invalid, notFound } from '../errors';
import { subscriptionRowFromState } from './projection';
import { billingLabel } from '../domain/billing';
import { startSubscriptionWorkflow } from './client';

export interface SubscriptionServiceDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
  logger: Logger;
}

const dayMs = 24 * 3600 * 1000;

/** A recurring, active price of the caller's account with its variant and product; not_found or invalid otherwise. */
export async function findRecurringPrice(
  db: Db | Prisma.TransactionClient,
  scope: Scope,
  priceId: string,
  storeId: string,
) {
  const price = await db.price.findFirst({
    where: { id: priceId, ...scope },
    include: { variant: { include: { product: true } } },
  });
  if (!price || price.variant.product.storeId !== storeId) throw notFound('Price');
  if (price.type !== 'recurring' || !price.interval)
    throw invalid('The price is not recurring; subscriptions need a recurring price', 'PRICE_NOT_RECURRING');
  if (!price.active || !price.variant.product.active)
    throw invalid('The price or its product is not active', 'PRICE_INACTIVE');
  return { ...price, interval: price.interval as BillingInterval, intervalCount: price.intervalCount ?? 1 };
}

/** unitAmount × quantity, refused (invalid) when it would not fit the amount columns (INTEGER). */
export function periodAmount(unitAmount: number, quantity: number): number {
  const amount = unitAmount * quantity;
  if (!Number.isSafeInteger(amount) || amount > maxAmount) {
    throw invalid(
      `unit amount ${unitAmount} × quantity ${quantity} exceeds the largest chargeable amount (${maxAmount} minor units)`,
      'AMOUNT_TOO_LARGE',
    );
  }
  return amount;
}

export interface NewSubscription {
  storeId: string;
  customerId: string;
  priceId: string;
  paymentMethodId: string;
  quantity: number;
  trialDays: number;
  shippingAddressId?: string;
  /** Creates a membership of this program backed by the subscription. */
  membershipProgramId?: string;
}

/**
 * Validates everything, writes the row (and membership) with its event, then starts the
 * workflow; a workflow that cannot start rolls the rows back so nothing half-made remains.
 */
export async function createSubscription(deps: SubscriptionServiceDeps, scope: Scope, input: NewSubscription) {
  const { db } = deps;
  const store = await db.store.findFirst({ where: { id: input.storeId, ...scope } });
  if (!store) throw notFound('Store');
  const customer = await db.customer.findFirst({ where: { id: input.customerId, ...scope } });
  if (!customer || (customer.storeId !== null && customer.storeId !== store.id)) throw notFound('Customer');
  const instrument = await db.paymentInstrument.findFirst({
    where: { id: input.paymentMethodId, ...scope, customerId: customer.id },
  });
  if (!instrument) throw notFound('Payment method');
  const price = await findRecurringPrice(db, scope, input.priceId, store.id);

  const now = Date.now();
  const trialEndsAtMs = input.trialDays > 0 ? now + input.trialDays * dayMs : null;
  const state: SubscriptionState = {
    subscriptionId: newId('subscription'),
    accountId: scope.accountId,
    mode: scope.mode,
    storeId: store.id,
    customerId: customer.id,
    status: trialEndsAtMs ? 'trialing' : 'active',
    productId: price.variant.productId,
    variantId: price.variantId,
    optionId: price.id,
    currency: price.currency,
    quantity: input.quantity,
    price: periodAmount(price.unitAmount, input.quantity),
    interval: price.interval,
    intervalCount: price.intervalCount,
    anchorAtMs: trialEndsAtMs ?? now,
    cycle: 0,
    startedAtMs: now,
    trialEndsAtMs,
    pausedUntilMs: null,
    canceledAtMs: null,
    cancelAtPeriodEnd: false,
    cancelReasonId: null,
    skippedDatesMs: [],
    lastPaymentFailedAtMs: null,
    paymentMethodId: instrument.id,
    paidOrdersCount: 0,
    dunning: null,
    chargesThisRun: 0,
    run: 1,
  };
  const { subscription, membership, eventId } = await db.$transaction(async (tx) => {
    const subscription = await tx.subscription.create({
      data: {
        id: state.subscriptionId,
        accountId: scope.accountId,
        mode: scope.mode,
        storeId: store.id,
        customerId: customer.id,
        startedAt: new Date(now),
        shippingAddressId: input.shippingAddressId ?? null,
        ...subscriptionRowFromState(state),
      },
    });
    const membership = input.membershipProgramId
      ? await tx.membership.create({
          data: {
            id: newId('membership'),
            accountId: scope.accountId,
            mode: scope.mode,
            storeId: store.id,
            customerId: customer.id,
            programId: input.membershipProgramId,
            subscriptionId: subscription.id,
            status: state.status,
            billing: billingLabel(state.interval, state.intervalCount),
            startedAt: new Date(now),
            renewsAt: subscription.nextBillingAt,
            trialEndsAt: subscription.trialEndsAt,
            paymentMethodId: instrument.id,
          },
        })
      : null;
    const event = await recordEvent(tx, {
      ...scope,
      storeId: store.id,
      customerId: customer.id,
      eventType: 's_subscription_created',
      properties: {
        subscriptionId: subscription.id,
        status: subscription.status,
        optionId: price.id,
        price: state.price,
        currency: state.currency,
        membershipId: membership?.id ?? null,
      },
    });
    return { subscription, membership, eventId: event.id };
  });
  try {
    await startSubscriptionWorkflow(deps.temporal, deps.taskQueue, state);
  } catch (error) {
    await db.$transaction(async (tx) => {
      await tx.membership.deleteMany({ where: { subscriptionId: subscription.id } });
      await tx.event.deleteMany({ where: { id: eventId } });
      await tx.subscription.delete({ where: { id: subscription.id } });
    });
    throw error;
  }
  await dispatchEventsNow({ db, temporal: deps.temporal, taskQueue: deps.taskQueue }, [eventId]).catch(
    (error: unknown) =>
      deps.logger.warn({ err: error }, 'subscription created event dispatch failed; the outbox sweep will retry'),
  );
  return { subscription, membership };
}
