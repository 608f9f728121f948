import { conflict, type DomainErrorData } from '../errors';

/**
 * Which 3-D Secure server engine-run authentication talks to. Test mode: the sandbox's simulated
 * 3DS server (`${sandboxUrl}/threeds`). Live mode: a real 3DS provider configured by the operator,
 * and the engine has no live provider yet, so engine-run 3DS is refused in live mode
 * (409 `THREEDS_PROVIDER_REQUIRED`). The simulator would authenticate any card frictionlessly and
 * hand out a made-up CAVV, which a live processor would then forward to the card network.
 */
export const threeDsProviderRequiredCode = 'THREEDS_PROVIDER_REQUIRED';

const threeDsProviderRequiredMessage =
  'Engine-run 3-D Secure in live mode needs a live 3DS server provider configured for the engine, and none is ' +
  'configured (this engine supports none yet; its built-in 3DS server is a test simulator). Authenticate with your ' +
  'own 3DS provider and send its values (POST /threeds/create-from-values, then threedsSessionId), or turn 3DS off ' +
  "on the flow or on its processors that take external values (a processor's own hosted 3DS still runs)";

export function threeDsProviderRequired(): DomainErrorData {
  return { kind: 'conflict', code: threeDsProviderRequiredCode, message: threeDsProviderRequiredMessage };
}

/** The base URL of the 3DS server for this mode, or null when none is configured (live mode, for now). */
export function threeDsServerUrl(mode: 'test' | 'live', sandboxUrl: string): string | null {
  return mode === 'test' ? `${sandboxUrl.replace(/\/+$/, '')}/threeds` : null;
}

/** Refuses, before anything is written, an engine-run authentication in a mode without a 3DS server. */
export function assertThreeDsProvider(mode: 'test' | 'live'): void {
  if (threeDsServerUrl(mode, '') === null) throw conflict(threeDsProviderRequiredMessage, threeDsProviderRequiredCode);
}
