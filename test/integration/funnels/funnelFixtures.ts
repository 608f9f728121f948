import type { Harness } from '../../helpers/harness';
import { createProduct, ok } from '../commerce/commerceHelpers';
import type { PaymentTenant } from '../payments/paymentsFixtures';

/** A landing → checkout → upsell (→ downsell on decline) → thankyou funnel over two offer prices. */
export const funnelSteps = (upsellPriceId: string, downsellPriceId: string) => [
  { key: 'land', type: 'landing', next: 'pay' },
  { key: 'pay', type: 'checkout', next: 'up' },
  { key: 'up', type: 'upsell', priceId: upsellPriceId, onAccept: 'thanks', onDecline: 'down' },
  { key: 'down', type: 'downsell', priceId: downsellPriceId, onAccept: 'thanks', onDecline: 'thanks' },
  { key: 'thanks', type: 'thankyou' },
];

/** The tenant's funnel whose upsell and downsell both offer a 9.90 EUR mug, and its step ids by key. */
export async function mugFunnel(harness: Harness, t: PaymentTenant) {
  const offerPrice = (await createProduct(harness, t.token, t.storeId, [{ unitAmount: 990, currency: 'EUR' }], 'Mug'))
    .variants[0].prices[0].id;
  const funnel = await ok(harness, 'POST', '/funnels/create', t.token, {
    storeId: t.storeId,
    name: 'Mugs',
    steps: funnelSteps(offerPrice, offerPrice),
  });
  const stepId = (key: string): string => funnel.steps.find((step: any) => step.key === key).id;
  return { funnel, stepId };
}
