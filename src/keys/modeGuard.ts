import { canActInMode, type Mode } from '../domain/apiKeys';
import { forbidden } from '../errors';

/** Forbidden (mode_escalation_forbidden) when a test partner key reaches for live mode. */
export function assertCanActInMode(partnerMode: Mode, requested: Mode): void {
  if (!canActInMode(partnerMode, requested)) {
    throw forbidden(
      `A ${partnerMode} partner key cannot create ${requested} keys or accounts`,
      'mode_escalation_forbidden',
    );
  }
}
