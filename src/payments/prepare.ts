import { findBlockingRule, ipRulesEvaluated, type BlockRuleInput } from '../domain/blockRules';
import { capabilityNames, routableCurrencies, routableInMode } from './processorAccess';
import { claimCheckoutSessionForPayment } from './checkoutClaims';
import type { DomainErrorData } from '../errors';
import { isFreeCart } from './paymentRequest';
import { readPaymentRequest, type PaymentRequestRows } from './paymentRequestRows';
import { existingPaymentRefusal } from './existingPayment';
import { paymentRequestRefusal } from './validatePayment';
import {
  chargeOf,
  rejection,
  type ChargeInput,
  type PaymentContext,
  type PaymentWorkflowInput,
  type PrepareResult,
} from './workflowTypes';
import { decryptPan } from '../vault/cardVault';
import type { KeySource } from '../vault/keyring';
import type { Db } from '../db/prisma';

/** Payments that count as "the customer paid through this processor" for sticky routing. */
const stickyStatuses = ['succeeded', 'authorized', 'partially_refunded', 'refunded'];

/**
 * Validates the request (before any side effect), then in one transaction claims the checkout
 * session (pay-v2) and writes the payment row `processing`. Safe to repeat: a retried call
 * finds its own row and claim. A row found under the id is resumed only while it is this
 * request's and still `processing`; otherwise it is refused (the id may be derived from an
 * Idempotency-Key, and an old payment must never be authorized again). Returns what routing needs, or `free` for a payment of 0 (a
 * checkout session a discount brought to 0), which routes nowhere.
 */
export async function preparePayment(
  db: Db,
  input: PaymentWorkflowInput,
  runId: string | null,
): Promise<PrepareResult> {
  // One read for the checks and the routing context: the rows a repeat reads are the same.
  const rows = await readPaymentRequest(db, input);
  if (rows.existingPayment) {
    // Resumed only when it is this request's row and nothing has finished it (a retried prepare).
    const reused = existingPaymentRefusal(input, rows.existingPayment, runId);
    if (reused) return { kind: 'rejected', error: reused };
  } else {
    const refusal = await paymentRequestRefusal(db, input, rows);
    if (refusal) return { kind: 'rejected', error: refusal };
    const refused = await writePaymentRow(db, input, runId);
    if (refused) return { kind: 'rejected', error: refused };
  }
  const noBlockRules = rows.blockRulesEnabled ? {} : { noBlockRules: true as const };
  if (isFreeCart(input)) return { kind: 'free', ...noBlockRules };
  const charge = chargeOf(input);
  // paymentRequestRefusal refuses a payment of more than 0 without a card or a flow.
  if (!charge)
    return rejection(
      'invalid',
      'PAYMENT_INSTRUMENT_REQUIRED',
      'A payment of more than 0 needs a card and a payment flow',
    );
  return { kind: 'ready', context: await routingContext(db, charge, rows), ...noBlockRules };
}

/**
 * Loads the account's block rules and the payment's signals (the cardholder's IP as the merchant
 * sent it, e-mail, card BIN, card country). When IP rules are in force, the payment records
 * whether they could be checked (`ipRulesEvaluated`: false when the request carried no customerIp).
 */
export async function checkBlockRules(
  db: Db,
  config: KeySource,
  input: { paymentId: string; accountId: string; mode: 'test' | 'live' },
) {
  // Rules first: most accounts have none, and then the payment's signals need no read.
  const rows = await db.blockRule.findMany({
    where: { accountId: input.accountId, mode: input.mode, enabled: true },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  if (rows.length === 0) return { blocked: false as const };
  const payment = await db.payment.findUniqueOrThrow({ where: { id: input.paymentId } });
  const [customer, instrument] = await Promise.all([
    payment.customerId ? db.customer.findUnique({ where: { id: payment.customerId } }) : null,
    payment.paymentInstrumentId
      ? db.paymentInstrument.findUnique({ where: { id: payment.paymentInstrumentId } })
      : null,
  ]);
  const rules = rows.map((row) => ({ ...row, operator: row.operator === 'AND' ? 'AND' : 'OR' }) as BlockRuleInput);
  const signals = {
    ip: payment.clientIp,
    email: customer?.email ?? null,
    cardBin: instrument ? decryptPan(instrument.encryptedPan, instrument.id, config).slice(0, 8) : null,
    country: instrument?.issuingCountry ?? null,
  };
  const now = new Date();
  const evaluated = ipRulesEvaluated(rules, signals, now);
  // Written here, inside the activity: a repeat writes the same value, and the workflow's steps stay as they were.
  if (evaluated !== undefined && payment.ipRulesEvaluated !== evaluated)
    await db.payment.update({ where: { id: payment.id }, data: { ipRulesEvaluated: evaluated } });
  const rule = findBlockingRule(rules, signals, now);
  return rule ? { blocked: true as const, ruleId: rule.id, ruleName: rule.name } : { blocked: false as const };
}

/** A 3DS challenge is waiting for the customer: the payment row shows it (GET answers requires_action). */
export async function markRequiresAction(db: Db, input: { paymentId: string; redirectUrl: string }): Promise<void> {
  await db.payment.updateMany({
    where: { id: input.paymentId, status: { in: ['processing', 'requires_action'] } },
    data: { status: 'requires_action', redirectUrl: input.redirectUrl },
  });
}

/**
 * The payment row `processing`: with a checkout session, in the same statement as the session's
 * claim (refused, writing nothing, when another payment holds it or the session is not open).
 */
async function writePaymentRow(
  db: Db,
  input: PaymentWorkflowInput,
  runId: string | null,
): Promise<DomainErrorData | null> {
  const row = {
    id: input.paymentId,
    accountId: input.accountId,
    mode: input.mode,
    storeId: input.storeId,
    customerId: input.customerId ?? null,
    orderId: input.orderId ?? null,
    subscriptionId: input.subscriptionId ?? null,
    paymentInstrumentId: input.paymentInstrumentId ?? null,
    paymentFlowId: input.paymentFlowId ?? null,
    threedsSessionId: input.threedsSessionId ?? null,
    intent: input.intent,
    amount: input.amount,
    currency: input.currency,
    initiatedBy: input.initiatedBy,
    source: input.source ?? null,
    clientIp: input.clientIp ?? null,
    returnUrl: input.returnUrl ?? null,
    metadata: input.blikCode ? { blikCode: input.blikCode } : null,
    workflowRunId: runId,
  };
  if (input.checkoutSessionId)
    return claimCheckoutSessionForPayment(db, { ...row, checkoutSessionId: input.checkoutSessionId });
  await db.payment.create({
    data: { ...row, checkoutSessionId: null, status: 'processing', metadata: row.metadata ?? undefined },
  });
  return null;
}

/** The flow, its processors (with capabilities as data) and the sticky processor (read only when the flow uses it). */
async function routingContext(db: Db, input: ChargeInput, rows: PaymentRequestRows): Promise<PaymentContext> {
  const { flow } = rows;
  if (!flow) throw new Error(`Payment flow ${input.paymentFlowId} not found in the payment's account and mode`);
  const processorConfigs = flow.processorConfigs as unknown as PaymentContext['flow']['processorConfigs'];
  const fallbackProcessorConfigs =
    flow.fallbackProcessorConfigs as unknown as PaymentContext['flow']['fallbackProcessorConfigs'];
  const processors = rows.processors;
  const sticky = flow.stickyProcessorEnabled
    ? await db.payment.findFirst({
        where: {
          customerId: input.customerId,
          paymentFlowId: flow.id,
          status: { in: stickyStatuses },
          processorId: { not: null },
          id: { not: input.paymentId },
        },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: { processorId: true },
      })
    : null;
  return {
    flow: {
      id: flow.id,
      strategy: flow.strategy,
      threeDsEnabled: flow.threeDsEnabled,
      authenticationTimeoutMinutes: flow.authenticationTimeoutMinutes,
      stickyProcessorEnabled: flow.stickyProcessorEnabled || !!input.pinnedProcessorId,
      pickProcessorStrategy: flow.pickProcessorStrategy,
      fallbackMode: flow.fallbackMode,
      maxFallbackRetries: flow.maxFallbackRetries,
      processorConfigs,
      fallbackProcessorConfigs,
    },
    processors: processors.map((p) => ({
      id: p.id,
      type: p.type,
      // A live row of a test-only type (made before such rows were refused) is never routed to.
      enabled: p.enabled && routableInMode(p.type, input.mode),
      enable3DS: p.enable3DS,
      // What the merchant enabled, narrowed to what the processor type takes: routing skips the rest.
      supportedCurrencies: routableCurrencies(p.type, p.supportedCurrencies),
      capabilities: capabilityNames(p.type),
    })),
    stickyProcessorId: input.pinnedProcessorId ?? sticky?.processorId ?? null,
  };
}
