/** A landing → checkout → upsell (→ downsell on decline) → thankyou funnel over two offer prices. */
export const funnelSteps = (upsellPriceId: string, downsellPriceId: string) => [
  { key: 'land', type: 'landing', next: 'pay' },
  { key: 'pay', type: 'checkout', next: 'up' },
  { key: 'up', type: 'upsell', priceId: upsellPriceId, onAccept: 'thanks', onDecline: 'down' },
  { key: 'down', type: 'downsell', priceId: downsellPriceId, onAccept: 'thanks', onDecline: 'thanks' },
  { key: 'thanks', type: 'thankyou' },
];
