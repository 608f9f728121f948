import type { Config } from '../config';
import type { Db } from '../db/prisma';
import type { Scope } from '../commerce/scope';
import { findStoreOfScope } from '../commerce/storeOfScope';
import { notFound, unauthenticated } from '../errors';
import { signOfferLink, verifyOfferLink, type PortalAction } from './offerLinks';
import { openPortalSession } from './session';
import { offerLinkSecret, offerLinkSecrets } from './tokens';

interface OfferDeps {
  db: Db;
  config: Config;
}

/** Opens an anonymous session limited to what a valid, unexpired signed offer link allows. */
export async function openOfferSession({ db, config }: OfferDeps, link: string) {
  const now = Date.now();
  const payload = offerLinkSecrets(config).reduce<ReturnType<typeof verifyOfferLink>>(
    (found, secret) => found ?? verifyOfferLink(link, secret, now),
    null,
  );
  if (!payload) throw unauthenticated('Offer link is not valid or has expired');
  // The session never outlives its link (nor the session TTL).
  const expiresAt = new Date(Math.min(Date.now() + config.PORTAL_SESSION_TTL_MINUTES * 60_000, payload.exp * 1000));
  return openPortalSession(db, expiresAt, {
    accountId: payload.accountId,
    mode: payload.mode,
    storeId: payload.storeId,
    kind: 'offer',
    customerId: payload.customerId,
    emailVerified: false,
    allowedActions: payload.actions,
    offerRef: payload.targetId,
  });
}

export interface NewOfferLink {
  storeId: string;
  customerId: string;
  actions: PortalAction[];
  /** A subscription or membership of the customer in the store. */
  targetId?: string;
  expiresInMinutes: number;
}

/** Signs an offer link for a customer of one of the caller's stores (and, when named, one target of theirs). */
export async function createOfferLink({ db, config }: OfferDeps, scope: Scope, input: NewOfferLink) {
  const store = await findStoreOfScope(db, scope, input.storeId);
  const customer = await db.customer.findFirst({ where: { id: input.customerId, ...scope } });
  if (!customer) throw notFound('Customer');
  if (input.targetId) {
    const [subscription, membership] = await Promise.all([
      db.subscription.findFirst({
        where: { id: input.targetId, ...scope, customerId: customer.id, storeId: store.id },
      }),
      db.membership.findFirst({
        where: { id: input.targetId, ...scope, customerId: customer.id, storeId: store.id },
      }),
    ]);
    if (!subscription && !membership) throw notFound('Subscription or membership');
  }
  const exp = Math.floor(Date.now() / 1000) + input.expiresInMinutes * 60;
  const link = signOfferLink(
    {
      accountId: scope.accountId,
      mode: scope.mode,
      storeId: store.id,
      customerId: customer.id,
      actions: input.actions,
      targetId: input.targetId ?? null,
      exp,
    },
    offerLinkSecret(config),
  );
  return { link, expiresAt: new Date(exp * 1000).toISOString() };
}
