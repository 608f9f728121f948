import { createMerchant, type Merchant } from '../../helpers/fixtures';
import { call, type ApiAnswer, type Harness } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import {
  createCard,
  createCustomer,
  createRecurringPrice,
  createStore,
  decliningCard,
  eventually,
  goodCard,
  testVaultEnv,
  untilSubscriptionAsleep,
} from '../subscriptions/subscriptionsFixtures';

/** What every portal test starts from: a merchant with two stores, two prices and a customer with two cards. */
export interface PortalWorld {
  harness: Harness;
  merchant: Merchant;
  storeA: string;
  storeB: string;
  basic: Awaited<ReturnType<typeof createRecurringPrice>>;
  pro: Awaited<ReturnType<typeof createRecurringPrice>>;
  customerId: string;
  goodCardId: string;
  badCardId: string;
  /** The customer's e-mail (they sign in with it). */
  email: string;
  /** POSTs to /api/v1/portal{path} with a session token. */
  portal: (token: string, path: string, body: unknown, headers?: Record<string, string>) => Promise<ApiAnswer>;
  /** Subscribes the customer (good card) and waits for the first paid order. */
  subscribe: (storeId: string, priceId: string) => Promise<{ id: string }>;
}

/** The calling file's harness (`useHarness`) and the world, built in its beforeAll. */
export function usePortalWorld(): PortalWorld {
  const harness = useHarness(testVaultEnv);
  const world = { harness, email: `portal-${Date.now()}@example.com` } as PortalWorld;
  beforeAll(async () => {
    const merchant = await createMerchant(harness.db);
    world.merchant = merchant;
    world.storeA = (await createStore(harness.db, merchant, 'Store A')).id;
    world.storeB = (await createStore(harness.db, merchant, 'Store B')).id;
    world.basic = await createRecurringPrice(harness.db, merchant, world.storeA, 'Basic box', 1000);
    world.pro = await createRecurringPrice(harness.db, merchant, world.storeA, 'Pro box', 3000);
    world.customerId = (await createCustomer(harness.db, merchant, world.email)).id;
    world.goodCardId = (await createCard(harness.db, harness.config, merchant, world.customerId, goodCard)).id;
    world.badCardId = (await createCard(harness.db, harness.config, merchant, world.customerId, decliningCard)).id;
  });

  world.portal = (token, path, body, headers = {}) =>
    call(world.harness, 'POST', `/api/v1/portal${path}`, { body, headers: { 'x-cms-token': token, ...headers } });
  world.subscribe = async (storeId, priceId) => {
    const created = await call(world.harness, 'POST', '/api/public/v1/subscriptions', {
      token: world.merchant.token,
      body: { storeId, customerId: world.customerId, priceId, paymentMethodId: world.goodCardId },
    });
    expect(created.status).toBe(201);
    const row = await eventually(
      () => world.harness.db.subscription.findUniqueOrThrow({ where: { id: created.body.id } }),
      (row) => row.paidOrdersCount === 1,
    );
    await untilSubscriptionAsleep(world.harness, row.id);
    return row;
  };
  return world;
}
