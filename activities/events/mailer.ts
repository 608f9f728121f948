import { createMailer, type Mailer } from '../../src/portal/mailer';
import type { ActivityDeps } from '../deps';

const ownMailers = new WeakMap<ActivityDeps, Mailer>();

/** The worker's mailer (it closes it), or one made on first use for activities built without one. */
export function mailerOf(deps: ActivityDeps): Mailer {
  if (deps.mailer) return deps.mailer;
  let own = ownMailers.get(deps);
  if (!own) ownMailers.set(deps, (own = createMailer(deps)));
  return own;
}

/** What the dispatch of committed events needs to send their customer e-mails at once. */
export function emailNowOf(deps: ActivityDeps) {
  return { db: deps.db, logger: deps.logger, mailer: mailerOf(deps) };
}
