import { addCrmKey, createMerchant, type Merchant } from '../../helpers/fixtures';
import { call, type Harness } from '../../helpers/harness';

/** Shared set-up for the commerce HTTP tests: a merchant, a second merchant, and a live key. */
export interface Tenants {
  merchant: Merchant;
  other: Merchant;
  liveToken: string;
}

export async function createTenants(harness: Harness): Promise<Tenants> {
  const merchant = await createMerchant(harness.db, { mode: 'test' });
  const other = await createMerchant(harness.db, { mode: 'test' });
  const liveToken = await addCrmKey(harness.db, merchant, { mode: 'live' });
  return { merchant, other, liveToken };
}

export const api = '/api/public/v1';

export async function ok<T = any>(
  harness: Harness,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<T> {
  const answer = await call<T>(harness, method, `${api}${path}`, { token, body });
  if (answer.status !== 200)
    throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export async function createStore(harness: Harness, token: string, overrides: Record<string, unknown> = {}) {
  return ok(harness, 'POST', '/stores', token, {
    name: 'Shop',
    baseCurrency: 'EUR',
    presentmentCurrencies: ['USD', 'JPY'],
    ...overrides,
  });
}

/** A store with one product whose single variant has one price per given amount. */
export async function createProduct(
  harness: Harness,
  token: string,
  storeId: string,
  prices: { unitAmount: number; currency: string }[],
  name = 'T-shirt',
) {
  return ok(harness, 'POST', '/products', token, {
    storeId,
    name,
    variants: [{ name: 'Default', prices: prices.map((price) => ({ ...price, type: 'one_time' })) }],
  });
}

/**
 * The checkout tests' shop: a store selling in EUR (base), JPY and USD, with one product and price
 * per currency (Socks 1999 EUR, Tea 1500 JPY, Pen 300 USD).
 */
export async function createCheckoutShop(harness: Harness, token: string) {
  const storeId: string = (
    await createStore(harness, token, { baseCurrency: 'EUR', presentmentCurrencies: ['JPY', 'USD'] })
  ).id;
  const priceOf = async (unitAmount: number, currency: string, name: string): Promise<string> =>
    (await createProduct(harness, token, storeId, [{ unitAmount, currency }], name)).variants[0].prices[0].id;
  const eurPrice = await priceOf(1999, 'EUR', 'Socks');
  const jpyPrice = await priceOf(1500, 'JPY', 'Tea');
  const usdPrice = await priceOf(300, 'USD', 'Pen');
  return { storeId, eurPrice, jpyPrice, usdPrice };
}

export async function createCustomer(
  harness: Harness,
  token: string,
  email = `buyer-${Math.random().toString(36).slice(2)}@example.com`,
) {
  return ok(harness, 'POST', '/customers', token, { email, firstName: 'Ada', lastName: 'Lovelace' });
}

/** Moves a checkout session's expiry `agoMs` into the past, as if it had lapsed unpaid. */
export function lapseSession(harness: Harness, id: string, agoMs: number) {
  return harness.db.checkoutSession.update({ where: { id }, data: { expiresAt: new Date(Date.now() - agoMs) } });
}

/** A checkout session's stored status (not the effective one the API shows). */
export async function sessionStatusInDb(harness: Harness, id: string): Promise<string> {
  return (await harness.db.checkoutSession.findUniqueOrThrow({ where: { id } })).status;
}
