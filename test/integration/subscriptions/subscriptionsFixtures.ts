import type { Db } from '../../../src/db/prisma';
import type { Config } from '../../../src/config';
import { newId } from '../../../src/domain/ids';
import { sealProcessorCredentials } from '../../../src/processors/credentials';
import { encryptPan, panFingerprint } from '../../../src/vault/cardVault';
import type { Merchant } from '../../helpers/fixtures';
import { call, type Harness } from '../../helpers/harness';
import { until } from '../../helpers/until';

/**
 * Catalogue rows for subscription tests, written straight to the database (commerce owns their
 * API). The store charges through a sandbox processor in a default payment flow, as a merchant's would.
 */
export async function createStore(
  db: Db,
  merchant: Merchant,
  name = 'Coffee Club',
  options: { threeDs?: boolean } = {},
) {
  // The sandbox acquirer's ledger is filtered by this id.
  const acquirerMerchantId = `m_${newId('processor')}`;
  const processorId = newId('processor');
  const processor = await db.processor.create({
    data: {
      id: processorId,
      accountId: merchant.accountId,
      mode: merchant.mode,
      name: 'Sandbox',
      type: 'sandbox',
      encryptedCredentials: sealProcessorCredentials({ merchantId: acquirerMerchantId }, processorId, {
        ...testVaultEnv,
        DATA_DIR: '/nonexistent',
      }),
      supportedCurrencies: ['USD'],
      baseCurrency: 'USD',
      enable3DS: options.threeDs ?? false,
    },
  });
  const flow = await db.paymentFlow.create({
    data: {
      id: newId('paymentFlow'),
      accountId: merchant.accountId,
      mode: merchant.mode,
      name: 'Default',
      processorConfigs: [{ processorId: processor.id, weight: 100, disabled: false, nonStickable: false }],
      fallbackProcessorConfigs: [],
      threeDsEnabled: options.threeDs ?? false,
    },
  });
  const store = await db.store.create({
    data: {
      id: newId('store'),
      accountId: merchant.accountId,
      mode: merchant.mode,
      name,
      baseCurrency: 'USD',
      presentmentCurrencies: ['USD'],
      defaultPaymentFlowId: flow.id,
    },
  });
  return { ...store, processorId: processor.id, acquirerMerchantId };
}

export async function createRecurringPrice(
  db: Db,
  merchant: Merchant,
  storeId: string,
  name: string,
  unitAmount: number,
  type: 'recurring' | 'one_time' = 'recurring',
) {
  const product = await db.product.create({
    data: { id: newId('product'), accountId: merchant.accountId, mode: merchant.mode, storeId, name },
  });
  const variant = await db.variant.create({ data: { id: newId('variant'), productId: product.id, name: 'default' } });
  const price = await db.price.create({
    data: {
      id: newId('price'),
      accountId: merchant.accountId,
      mode: merchant.mode,
      variantId: variant.id,
      unitAmount,
      currency: 'USD',
      type,
      ...(type === 'recurring' ? { interval: 'month' as const, intervalCount: 1 } : {}),
    },
  });
  return { product, variant, price };
}

export async function createCustomer(db: Db, merchant: Merchant, email: string, storeId: string | null = null) {
  return db.customer.create({
    data: { id: newId('customer'), accountId: merchant.accountId, mode: merchant.mode, storeId, email },
  });
}

export async function createCard(db: Db, config: Config, merchant: Merchant, customerId: string, pan: string) {
  const id = newId('paymentInstrument');
  return db.paymentInstrument.create({
    data: {
      id,
      accountId: merchant.accountId,
      mode: merchant.mode,
      customerId,
      brand: 'visa',
      last4: pan.slice(-4),
      bin: pan.slice(0, 6),
      expMonth: 12,
      expYear: 2035,
      encryptedPan: encryptPan(pan, id, config),
      fingerprint: panFingerprint(pan, config),
    },
  });
}

/** A fixed vault key so card fixtures never depend on a key file on disk. */
export const testVaultEnv = { ENCRYPTION_KEY: 'ab'.repeat(32) };

export const goodCard = '4242424242424242';
export const decliningCard = '4000000000000002';

/** Polls until `check` passes (the workflow runs asynchronously), or fails with the last answer. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

/**
 * Waits until the subscription's workflow has finished its last step and sleeps until the next
 * billing date (its history ends in the sleep's timer). A row written by the first charge shows up
 * before the workflow has taken the charge's result, and a customer's change sent in that moment is
 * refused as busy: tests that fire changes wait for this first.
 */
export async function untilSubscriptionAsleep(harness: Pick<Harness, 'temporal'>, subscriptionId: string) {
  const handle = harness.temporal.workflow.getHandle(subscriptionId);
  await eventually(
    async () => (await handle.fetchHistory()).events ?? [],
    (events) => events.at(-1)?.timerStartedEventAttributes != null,
  );
}

/** Portal login through the sandbox outbox: login → read the code → confirm → token. */
/**
 * The outbox message carrying the code of `loginId`. The engine mails the code after answering the
 * login (so customers and strangers get the same timing): the message may land a moment later.
 */
export async function loginCodeMail(
  harness: Pick<Harness, 'sandboxUrl'>,
  email: string,
  loginId: string,
): Promise<{ text: string; meta: Record<string, string> }> {
  // Codes are mailed after the login's answer.
  return until(async () => {
    const mailbox = await fetch(`${harness.sandboxUrl}/outbox/messages?to=${encodeURIComponent(email)}`).then(
      (r) => r.json() as Promise<{ data: { text: string; meta: Record<string, string> }[] }>,
    );
    return mailbox.data.find((m) => m.meta.loginId === loginId);
  }, 10_000);
}

export async function portalLogin(harness: Harness, storeId: string, email: string): Promise<string> {
  const login = await call(harness, 'POST', '/api/v1/cms/session/login', { body: { storeId, email } });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${JSON.stringify(login.body)}`);
  const message = await loginCodeMail(harness, email, login.body.loginId);
  const confirm = await call(harness, 'POST', '/api/v1/cms/session/confirm', {
    body: { loginId: login.body.loginId, code: message.meta.code },
  });
  if (confirm.status !== 200) throw new Error(`confirm answered ${confirm.status}: ${JSON.stringify(confirm.body)}`);
  return confirm.body.token as string;
}
