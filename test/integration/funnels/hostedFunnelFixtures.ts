import type { Harness } from '../../helpers/harness';
import { createProduct, ok } from '../commerce/commerceHelpers';
import type { PaymentTenant } from '../payments/paymentsFixtures';
import { funnelSteps } from './funnelFixtures';

/**
 * A funnel whose upsell offers a 9.90 EUR mug (titled per language) and whose downsell a 4.90 EUR
 * coaster, a customer's session in it, and a checkout session (two of the tenant's product) that
 * belongs to that funnel session: its hosted page leads on to the offers.
 */
export async function hostedFunnelCheckout(harness: Harness, t: PaymentTenant, extra: Record<string, unknown> = {}) {
  const priceOf = async (name: string, unitAmount: number) =>
    (await createProduct(harness, t.token, t.storeId, [{ unitAmount, currency: 'EUR' }], name)).variants[0].prices[0]
      .id as string;
  const mug = await priceOf('Mug', 990);
  const coaster = await priceOf('Coaster', 490);
  const steps = funnelSteps(mug, coaster).map((step) =>
    step.key === 'up' ? { ...step, name: 'Matching mug', titleTrans: { de: 'Passender Becher' } } : step,
  );
  const funnel = await ok(harness, 'POST', '/funnels/create', t.token, { storeId: t.storeId, name: 'Mugs', steps });
  const stepId = (key: string): string => funnel.steps.find((step: { key: string }) => step.key === key).id;
  const funnelSession = await ok(harness, 'POST', '/funnel-sessions', t.token, {
    funnelId: funnel.id,
    customerId: t.customerId,
  });
  const session = await ok(harness, 'POST', '/checkout-sessions', t.token, {
    storeId: t.storeId,
    customerId: t.customerId,
    lineItems: [{ priceId: t.priceId, quantity: 2 }],
    successUrl: 'https://shop.example/thanks',
    funnelSessionId: funnelSession.id,
    ...extra,
  });
  return { funnel, stepId, funnelSession, session, prices: { mug, coaster } };
}
