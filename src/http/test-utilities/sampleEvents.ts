import { randomBase62 } from '../../domain/ids';

/** Properties of a sample event, shaped like the real event of that family, marked `sample: true`. */
export function sampleProperties(webhookType: string): Record<string, unknown> {
  const fake = (prefix: string) => `${prefix}_sample${randomBase62(14)}`;
  const family = webhookType.split('/')[0];
  const money = { amount: 1999, currency: 'USD' };
  switch (family) {
    case 'order':
      return { sample: true, orderId: fake('ord'), ...money };
    case 'payment':
      return { sample: true, paymentId: fake('pay'), orderId: fake('ord'), ...money };
    case 'checkout_session':
      return { sample: true, checkoutSessionId: fake('ch'), orderId: fake('ord'), ...money };
    case 'subscription':
      return { sample: true, subscriptionId: fake('sub'), ...money };
    case 'threeds_session':
      return { sample: true, threeDsSessionId: fake('3ds'), paymentId: fake('pay') };
    case 'webhook_endpoint':
      return { sample: true, endpointId: fake('wh'), reason: 'failing' };
    default:
      return { sample: true };
  }
}
