import type { Scope } from '../commerce/scope';
import type { Db } from '../db/prisma';
import { findStoreOfScope } from '../commerce/storeOfScope';
import { conflict, type DomainErrorData } from '../errors';

/**
 * Which 3DS server engine-run authentication talks to, chosen per payment flow:
 * - the flow names a 3DS provider (`threeDsProviderProcessorId`, a processor of the account
 *   with the `threeDsProvider` capability): Adyen's authentication-only flow with that processor's credentials, in either mode;
 * - none named, test mode: the sandbox's simulated 3DS server (`${sandboxUrl}/threeds`);
 * - none named, live mode: refused (409 `THREEDS_PROVIDER_REQUIRED`). The simulator would
 *   authenticate any card frictionlessly and hand out a made-up CAVV, which a live processor would
 *   then forward to the card network.
 * `/threeds/authenticate` and `/threeds/create-merchant-session` use the flow of their store
 * (the store's default payment flow).
 */
export const threeDsProviderRequiredCode = 'THREEDS_PROVIDER_REQUIRED';

const threeDsProviderRequiredMessage =
  'Engine-run 3-D Secure in live mode needs a live 3DS server provider, and the payment flow names none: set ' +
  "threeDsProviderProcessorId on the flow (the store's default flow for /threeds/authenticate and " +
  "create-merchant-session) to a live processor of the account that can be a 3DS provider (Adyen) (Adyen's authentication-only flow). Or " +
  'authenticate with your own 3DS provider and send its values (POST /threeds/create-from-values, then ' +
  "threedsSessionId), or turn 3DS off on the flow or on its processors that take external values (a processor's " +
  'own hosted 3DS still runs)';

export function threeDsProviderRequired(): DomainErrorData {
  return { kind: 'conflict', code: threeDsProviderRequiredCode, message: threeDsProviderRequiredMessage };
}

/** Whether engine-run 3DS can run: a provider named, or test mode (the sandbox's simulator). */
export function hasThreeDsServer(mode: 'test' | 'live', providerProcessorId: string | null | undefined): boolean {
  return Boolean(providerProcessorId) || mode === 'test';
}

/** The base URL of the sandbox's simulated 3DS server: test mode only, never a live session. */
export function simulatorUrl(mode: 'test' | 'live', sandboxUrl: string): string | null {
  return mode === 'test' ? `${sandboxUrl.replace(/\/+$/, '')}/threeds` : null;
}

/**
 * The 3DS provider of a store's default payment flow (null when none), refused before anything
 * is written when the mode has no 3DS server without one.
 */
export async function threeDsProviderOfStore(
  db: Db,
  scope: Scope,
  storeId: string | undefined,
): Promise<string | null> {
  const store = storeId ? await findStoreOfScope(db, scope, storeId) : null;
  const flow = store?.defaultPaymentFlowId
    ? await db.paymentFlow.findFirst({ where: { id: store.defaultPaymentFlowId, ...scope } })
    : null;
  const providerProcessorId = flow?.threeDsProviderProcessorId ?? null;
  if (!hasThreeDsServer(scope.mode, providerProcessorId))
    throw conflict(threeDsProviderRequiredMessage, threeDsProviderRequiredCode);
  return providerProcessorId;
}
