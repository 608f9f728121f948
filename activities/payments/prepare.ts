import { findBlockingRule, type BlockRuleInput } from '../../src/domain/blockRules';
import { capabilityNames, routableCurrencies } from '../../src/payments/processorAccess';
import { claimCheckoutSession } from '../../src/payments/checkoutClaims';
import type { DomainErrorData } from '../../src/errors';
import { validatePaymentRequest } from '../../src/payments/validatePayment';
import {
  chargeOf,
  rejection,
  type ChargeInput,
  type PaymentContext,
  type PaymentWorkflowInput,
  type PrepareResult,
} from '../../src/payments/workflowTypes';
import { decryptPan } from '../../src/vault/cardVault';
import type { ActivityDeps } from '../deps';

/** Payments that count as "the customer paid through this processor" for sticky routing. */
const stickyStatuses = ['succeeded', 'authorized', 'partially_refunded', 'refunded'];

class RefusedInTransaction extends Error {
  constructor(readonly refusal: DomainErrorData) {
    super(refusal.message);
  }
}

export function createPaymentActivities(deps: ActivityDeps) {
  const { db } = deps;
  return {
    /**
     * Validates the request (before any side effect), then in one transaction claims the checkout
     * session (pay-v2) and writes the payment row `processing`. Safe to repeat: a retried call
     * finds its own row and claim. Returns what routing needs, or `free` for a payment of 0 (a
     * checkout session a discount brought to 0), which routes nowhere.
     */
    async preparePayment(input: PaymentWorkflowInput): Promise<PrepareResult> {
      const existing = await db.payment.findUnique({ where: { id: input.paymentId } });
      if (!existing) {
        const refusal = await validatePaymentRequest(db, input);
        if (refusal) return { kind: 'rejected', error: refusal };
        const refused = await db
          .$transaction(async (tx) => {
            if (input.checkoutSessionId) {
              const claim = await claimCheckoutSession(tx, input.checkoutSessionId, input.paymentId);
              // Thrown so the transaction rolls the claim back; caught just below.
              if (claim) throw new RefusedInTransaction(claim);
            }
            await tx.payment.create({
              data: {
                id: input.paymentId,
                accountId: input.accountId,
                mode: input.mode,
                storeId: input.storeId,
                customerId: input.customerId,
                orderId: input.orderId ?? null,
                checkoutSessionId: input.checkoutSessionId ?? null,
                paymentInstrumentId: input.paymentInstrumentId,
                paymentFlowId: input.paymentFlowId,
                threedsSessionId: input.threedsSessionId ?? null,
                intent: input.intent,
                status: 'processing',
                amount: input.amount,
                currency: input.currency,
                initiatedBy: input.initiatedBy,
                source: input.source ?? null,
                clientIp: input.clientIp ?? null,
                metadata: input.blikCode ? { blikCode: input.blikCode } : undefined,
              },
            });
            return null;
          })
          .catch((error: unknown) => {
            if (error instanceof RefusedInTransaction) return error.refusal;
            throw error;
          });
        if (refused) return { kind: 'rejected', error: refused };
      }
      if (input.amount === 0) return { kind: 'free' };
      const charge = chargeOf(input);
      // validatePaymentRequest refuses a payment of more than 0 without a card or a flow.
      if (!charge)
        return rejection(
          'invalid',
          'PAYMENT_INSTRUMENT_REQUIRED',
          'A payment of more than 0 needs a card and a payment flow',
        );
      return { kind: 'ready', context: await loadRoutingContext(charge) };
    },

    /** Loads the account's block rules and the payment's signals (IP, e-mail, card BIN, card country). */
    async checkBlockRules(input: { paymentId: string; accountId: string; mode: 'test' | 'live' }) {
      const payment = await db.payment.findUniqueOrThrow({ where: { id: input.paymentId } });
      const rows = await db.blockRule.findMany({
        where: { accountId: input.accountId, mode: input.mode, enabled: true },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      if (rows.length === 0) return { blocked: false as const };
      const [customer, instrument] = await Promise.all([
        payment.customerId ? db.customer.findUnique({ where: { id: payment.customerId } }) : null,
        payment.paymentInstrumentId
          ? db.paymentInstrument.findUnique({ where: { id: payment.paymentInstrumentId } })
          : null,
      ]);
      const rules = rows.map((row) => ({ ...row, operator: row.operator === 'AND' ? 'AND' : 'OR' }) as BlockRuleInput);
      const rule = findBlockingRule(
        rules,
        {
          ip: payment.clientIp,
          email: customer?.email ?? null,
          cardBin: instrument ? decryptPan(instrument.encryptedPan, deps.config).slice(0, 8) : null,
          country: instrument?.issuingCountry ?? null,
        },
        new Date(),
      );
      return rule ? { blocked: true as const, ruleId: rule.id, ruleName: rule.name } : { blocked: false as const };
    },

    /** A 3DS challenge is waiting for the customer: the payment row shows it (GET answers requires_action). */
    async markRequiresAction(input: { paymentId: string; redirectUrl: string }): Promise<void> {
      await db.payment.updateMany({
        where: { id: input.paymentId, status: { in: ['processing', 'requires_action'] } },
        data: { status: 'requires_action', redirectUrl: input.redirectUrl },
      });
    },
  };

  /** The flow, its processors (with capabilities as data) and the sticky processor. */
  async function loadRoutingContext(input: ChargeInput): Promise<PaymentContext> {
    const flow = await db.paymentFlow.findFirstOrThrow({
      where: { id: input.paymentFlowId, accountId: input.accountId, mode: input.mode },
    });
    const processorConfigs = flow.processorConfigs as unknown as PaymentContext['flow']['processorConfigs'];
    const fallbackProcessorConfigs =
      flow.fallbackProcessorConfigs as unknown as PaymentContext['flow']['fallbackProcessorConfigs'];
    const ids = [
      ...new Set([
        ...processorConfigs.map((c) => c.processorId),
        ...fallbackProcessorConfigs.map((c) => c.processorId),
      ]),
    ];
    const [processors, sticky] = await Promise.all([
      db.processor.findMany({ where: { id: { in: ids }, accountId: input.accountId, mode: input.mode } }),
      flow.stickyProcessorEnabled
        ? db.payment.findFirst({
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
        : null,
    ]);
    return {
      flow: {
        id: flow.id,
        strategy: flow.strategy,
        threeDsEnabled: flow.threeDsEnabled,
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
        enabled: p.enabled,
        enable3DS: p.enable3DS,
        // What the merchant enabled, narrowed to what the processor type takes: routing skips the rest.
        supportedCurrencies: routableCurrencies(p.type, p.supportedCurrencies),
        capabilities: capabilityNames(p.type),
      })),
      stickyProcessorId: input.pinnedProcessorId ?? sticky?.processorId ?? null,
    };
  }
}
