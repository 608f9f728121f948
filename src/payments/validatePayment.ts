import type { Db } from '../db/prisma';
import { isSupportedCurrency } from '../domain/money';
import type { DomainErrorData, DomainErrorKind } from '../errors';
import { planThreeDs } from '../threeds/paymentPlan';
import { hasThreeDsServer, threeDsProviderRequired } from '../threeds/provider';
import { amountRefusal, isFreeCart, missingForCharge, missingRefusal } from './paymentRequest';
import type { PaymentRequestRows } from './paymentRequestRows';
import { capabilityNames } from './processorAccess';
import type { PaymentWorkflowInput } from './workflowTypes';

const refuse = (kind: DomainErrorKind, code: string, message: string): DomainErrorData => ({ kind, code, message });
const missing = (what: string) => refuse('not_found', 'NOT_FOUND', `${what} not found`);

/**
 * Everything a payment must satisfy before anything is written: amount and currency, and that
 * store, customer, card, flow, checkout session and order exist in the caller's account and mode
 * and belong together, on the rows readPaymentRequest read (only a named order is read here).
 * Returns the refusal, or null when the payment may go ahead.
 *
 * Only a checkout session may be paid with 0 (a free cart, paymentRequest.ts): it needs no card
 * and no flow; one given anyway is still checked.
 */
export async function paymentRequestRefusal(
  db: Db,
  input: PaymentWorkflowInput,
  rows: PaymentRequestRows,
): Promise<DomainErrorData | null> {
  // Amount, card and flow: the rules every payment request follows (paymentRequest.ts).
  const badAmount = amountRefusal(input);
  if (badAmount) return badAmount;
  const lacking = missingForCharge(input);
  if (lacking) return missingRefusal(lacking, input);
  if (!isSupportedCurrency(input.currency))
    return refuse('invalid', 'CURRENCY_NOT_SUPPORTED', `Currency ${input.currency} is not supported`);
  const scope = { accountId: input.accountId, mode: input.mode };
  const { store, customer, instrument, flow } = rows;
  if (!store) return missing('Store');
  if (!customer) return missing('Customer');
  if (input.paymentInstrumentId && !instrument) return missing('Payment instrument');
  if (input.paymentFlowId && !flow) return missing('Payment flow');
  if (instrument && instrument.customerId !== customer.id) {
    return refuse('invalid', 'PAYMENT_INSTRUMENT_MISMATCH', 'The payment instrument belongs to another customer');
  }
  if (customer.storeId && customer.storeId !== store.id) {
    return refuse('invalid', 'CUSTOMER_STORE_MISMATCH', 'The customer belongs to another store');
  }
  if (input.currency !== store.baseCurrency && !store.presentmentCurrencies.includes(input.currency)) {
    return refuse('invalid', 'CURRENCY_NOT_SUPPORTED', `Store does not sell in ${input.currency}`);
  }
  if (input.checkoutSessionId) {
    const { session } = rows;
    if (!session) return missing('Checkout session');
    if (session.status === 'paid')
      return refuse('conflict', 'CHECKOUT_ALREADY_PAID', 'Checkout session is already paid');
    if (session.status !== 'open' || session.expiresAtMs <= Date.now()) {
      return refuse('conflict', 'CHECKOUT_EXPIRED', 'Checkout session is expired and cannot be paid');
    }
    if (
      session.storeId !== store.id ||
      session.customerId !== customer.id ||
      session.total !== input.amount ||
      session.currency !== input.currency
    ) {
      return refuse(
        'invalid',
        'CHECKOUT_MISMATCH',
        'Payment does not match the checkout session (store, customer, amount or currency)',
      );
    }
  }
  // A subscription charge names the order its subscription writes once it is paid: none exists yet.
  if (input.orderId && !input.subscriptionId) {
    const order = await db.order.findFirst({ where: { id: input.orderId, ...scope } });
    if (!order) return missing('Order');
    if (order.storeId !== store.id || order.customerId !== customer.id) {
      return refuse('invalid', 'ORDER_MISMATCH', 'The order belongs to another store or customer');
    }
    if (order.currency !== input.currency)
      return refuse('invalid', 'ORDER_MISMATCH', `The order is in ${order.currency}`);
    if (order.status !== 'pending')
      return refuse('conflict', 'ORDER_NOT_PAYABLE', `The order is ${order.status} and cannot be paid`);
  }
  if (wouldRunEngineThreeDs(input, rows) && !hasThreeDsServer(input.mode, rows.flow?.threeDsProviderProcessorId))
    return threeDsProviderRequired();
  return null;
}

/**
 * Whether the payment workflow's 3DS step would authenticate the card itself (the same decision,
 * planThreeDs, on the same rows): no session given, and the flow and a processor taking external
 * values ask for 3DS. Refused here, before anything is written, in a mode without a 3DS server.
 */
function wouldRunEngineThreeDs(input: PaymentWorkflowInput, rows: PaymentRequestRows): boolean {
  if (isFreeCart(input) || input.threedsSessionId || !rows.flow) return false;
  const plan = planThreeDs({
    initiatedBy: input.initiatedBy,
    flowThreeDsEnabled: rows.flow.threeDsEnabled,
    processors: rows.processors.map((processor) => ({
      enable3DS: processor.enable3DS,
      capabilities: capabilityNames(processor.type),
    })),
    session: null,
  });
  return plan.kind === 'authenticate';
}
