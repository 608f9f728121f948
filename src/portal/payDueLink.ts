import type { Config } from '../config';
import { dunningScheduleDays } from '../domain/billingRetry';
import type { SubscriptionState } from '../domain/billingState';
import { signOfferLink } from './offerLinks';
import { offerLinkSecret } from './tokens';

/** As long as dunning lasts: from the failure to the last retry. */
const payDueLinkTtlSeconds = dunningScheduleDays[dunningScheduleDays.length - 1]! * 24 * 3600;

/**
 * The portal link a dunning e-mail gives the customer: an offer link (POST /api/v1/cms/session/offer)
 * whose session may only pay this subscription's failed renewal on-session (`renewals.pay`).
 */
export function payDueLinkFor(
  config: Config,
  state: Pick<SubscriptionState, 'accountId' | 'mode' | 'storeId' | 'customerId' | 'subscriptionId'>,
  nowMs: number,
): { link: string; expiresAt: string } {
  const exp = Math.floor(nowMs / 1000) + payDueLinkTtlSeconds;
  const link = signOfferLink(
    {
      accountId: state.accountId,
      mode: state.mode,
      storeId: state.storeId,
      customerId: state.customerId,
      actions: ['renewals.pay'],
      targetId: state.subscriptionId,
      exp,
    },
    offerLinkSecret(config),
  );
  return { link, expiresAt: new Date(exp * 1000).toISOString() };
}
