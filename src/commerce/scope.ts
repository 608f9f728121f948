import type { Mode } from '../domain/apiKeys';

/** The account + mode every commerce row is filtered by; other accounts' and modes' rows do not exist (not_found). */
export interface Scope {
  accountId: string;
  mode: Mode;
}
