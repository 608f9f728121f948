import { Prisma, type Db } from '../db/prisma';
import type { PaymentWorkflowInput } from './workflowTypes';
import { rawRows } from '../db/rawRows';

/** What of an existing payment row tells whether it is this request's (see paymentRowRefusal). */
export interface ExistingPaymentRow {
  accountId: string;
  mode: string;
  status: string;
  storeId: string;
  customerId: string | null;
  paymentInstrumentId: string | null;
  checkoutSessionId: string | null;
  orderId: string | null;
  intent: string;
  amount: number;
  currency: string;
  workflowRunId: string | null;
}

/** What a payment's preparation reads, fetched in ONE statement (see readPaymentRequest). */
export interface PaymentRequestRows {
  /** The payment row under this id, when one exists already (a retried prepare, or a keyed retry). */
  existingPayment: ExistingPaymentRow | null;
  store: { id: string; baseCurrency: string; presentmentCurrencies: string[] } | null;
  customer: { id: string; storeId: string | null } | null;
  instrument: { id: string; customerId: string } | null;
  flow: {
    id: string;
    strategy: string;
    threeDsEnabled: boolean;
    threeDsProviderProcessorId: string | null;
    authenticationTimeoutMinutes: number;
    stickyProcessorEnabled: boolean;
    pickProcessorStrategy: string;
    fallbackMode: boolean;
    maxFallbackRetries: number;
    processorConfigs: unknown;
    fallbackProcessorConfigs: unknown;
  } | null;
  session: {
    status: string;
    expiresAtMs: number;
    storeId: string;
    customerId: string;
    total: number;
    currency: string;
  } | null;
  /** The account has an enabled block rule in this mode (checkBlockRules then reads them and the signals). */
  blockRulesEnabled: boolean;
  /** The account's processors (in the payment's mode) that the flow names, in either list. */
  processors: { id: string; type: string; enabled: boolean; enable3DS: boolean; supportedCurrencies: string[] }[];
}

/**
 * The payment row's existence, whether block rules apply, its store, customer, card, flow, checkout
 * session and the flow's processors, all scoped to the caller's account and mode, in one round
 * trip: each was its own query (ten, with the routing context read after the write). A missing id
 * reads as null.
 */
export async function readPaymentRequest(db: Db, input: PaymentWorkflowInput): Promise<PaymentRequestRows> {
  const scope = Prisma.sql`account_id = ${input.accountId} AND mode = ${input.mode}::"Mode"`;
  const [row] = await rawRows<Record<keyof PaymentRequestRows, unknown>>(db)`
    SELECT
      (SELECT jsonb_build_object('accountId', account_id, 'mode', mode, 'status', status, 'storeId', store_id,
              'customerId', customer_id, 'paymentInstrumentId', payment_instrument_id,
              'checkoutSessionId', checkout_session_id, 'orderId', order_id, 'intent', intent, 'amount', amount,
              'currency', currency, 'workflowRunId', workflow_run_id)
         FROM payments WHERE id = ${input.paymentId}) AS "existingPayment",
      EXISTS (SELECT 1 FROM block_rules WHERE ${scope} AND enabled) AS "blockRulesEnabled",
      (SELECT jsonb_build_object('id', id, 'baseCurrency', base_currency, 'presentmentCurrencies', presentment_currencies)
         FROM stores WHERE id = ${input.storeId} AND ${scope}) AS store,
      (SELECT jsonb_build_object('id', id, 'storeId', store_id)
         FROM customers WHERE id = ${input.customerId} AND ${scope}) AS customer,
      (SELECT jsonb_build_object('id', id, 'customerId', customer_id)
         FROM payment_instruments WHERE id = ${input.paymentInstrumentId ?? null} AND ${scope}) AS instrument,
      (SELECT jsonb_build_object('id', id, 'strategy', strategy, 'threeDsEnabled', three_ds_enabled,
              'threeDsProviderProcessorId', three_ds_provider_processor_id,
              'authenticationTimeoutMinutes', authentication_timeout_minutes,
              'stickyProcessorEnabled', sticky_processor_enabled, 'pickProcessorStrategy', pick_processor_strategy,
              'fallbackMode', fallback_mode, 'maxFallbackRetries', max_fallback_retries,
              'processorConfigs', processor_configs, 'fallbackProcessorConfigs', fallback_processor_configs)
         FROM payment_flows WHERE id = ${input.paymentFlowId ?? null} AND ${scope}) AS flow,
      (SELECT jsonb_build_object('status', status, 'expiresAtMs', (extract(epoch FROM expires_at) * 1000)::bigint,
              'storeId', store_id, 'customerId', customer_id, 'total', total, 'currency', currency)
         FROM checkout_sessions WHERE id = ${input.checkoutSessionId ?? null} AND ${scope}) AS session,
      (SELECT coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'type', p.type, 'enabled', p.enabled,
              'enable3DS', p.enable_3ds, 'supportedCurrencies', p.supported_currencies)), '[]'::jsonb)
         FROM processors p
        WHERE p.account_id = ${input.accountId} AND p.mode = ${input.mode}::"Mode"
          AND p.id IN (SELECT config->>'processorId'
                         FROM payment_flows f,
                              jsonb_array_elements(f.processor_configs || f.fallback_processor_configs) AS config
                        WHERE f.id = ${input.paymentFlowId ?? null} AND f.account_id = ${input.accountId}
                          AND f.mode = ${input.mode}::"Mode")) AS processors`;
  return row as unknown as PaymentRequestRows;
}
