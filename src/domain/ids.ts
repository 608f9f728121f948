import { randomBytes } from 'node:crypto';

/** Type prefixes of every identifier the API exposes. */
export const idPrefixes = {
  partner: 'par',
  account: 'acc',
  processingAccount: 'tpa',
  apiKey: 'key',
  store: 'store',
  product: 'prod',
  variant: 'var',
  price: 'price',
  customer: 'cus',
  paymentInstrument: 'pi',
  checkoutSession: 'ch',
  checkoutLineItem: 'chli',
  order: 'ord',
  orderItem: 'oli',
  payment: 'pay',
  paymentAttempt: 'att',
  refund: 're',
  dispute: 'dp',
  paymentFlow: 'flow',
  processor: 'proc',
  promotion: 'promo',
  promotionCode: 'pc',
  promotionRedemption: 'prr',
  checkoutOffer: 'co',
  emailTemplate: 'et',
  blockRule: 'br',
  webhookEndpoint: 'wh',
  webhookDelivery: 'whd',
  event: 'evt',
  processorWebhookEvent: 'pwe',
  threeDsSession: '3ds',
  subscription: 'sub',
  membership: 'mem',
  membershipProgram: 'mprog',
  creditRedemption: 'cred',
  cardReattempt: 'cra',
  portalSession: 'ps',
  portalLoginCode: 'plc',
  offer: 'ofr',
  plugin: 'plg',
  pluginDeployment: 'dep',
  deploymentInstance: 'dpi',
  pluginRoute: 'prt',
  customDomain: 'dom',
  builderSession: 'bld',
  request: 'req',
  user: 'usr',
  funnel: 'funnelv2',
  funnelStep: 'step',
  funnelSession: 'fs',
  funnelOfferAnswer: 'fsoa',
  funnelStepEvent: 'fse',
  sentEmail: 'eml',
} as const;

export type IdKind = keyof typeof idPrefixes;
export type IdPrefix = (typeof idPrefixes)[IdKind];

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A random base62 string; 20 characters carry about 119 bits of entropy. */
export function randomBase62(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const byte = bytes[i]!;
    // Reject bytes that would bias the modulo (248 = 62 * 4).
    if (byte < 248) out += alphabet[byte % 62];
  }
  return out.length === length ? out : out + randomBase62(length - out.length);
}

export function newId(kind: IdKind): string {
  return `${idPrefixes[kind]}_${randomBase62(20)}`;
}

/**
 * The one shape of an id of ours: `<prefix>_` and 1–64 base62 characters (any of several prefixes).
 * Request validators and list filters both check ids with it.
 */
export function idPattern(...prefixes: [IdPrefix, ...IdPrefix[]]): RegExp {
  return new RegExp(`^(?:${prefixes.join('|')})_[0-9A-Za-z]{1,64}$`);
}
