/**
 * When an endpoint counts as failing for 3 days straight. A streak is a run of failed attempts
 * with no delivered one between them (`failingSince`) and no long silence either: a failing
 * delivery retries at least every 6 hours, so two failures further apart than twice that had no
 * failing delivery in between, and the later one starts a new streak. Without that, a streak left
 * open before an idle month would disable the endpoint on the first failure after it.
 */
export const failingWindowMs = 3 * 24 * 3600 * 1000;
export const streakGapMs = 12 * 3600 * 1000;

export interface FailureRecord {
  failingSince: Date | null;
  lastFailedAt: Date | null;
}

/** Where the streak a failure at `failedAt` belongs to started, and whether this failure starts it. */
export function streakOf(endpoint: FailureRecord, failedAt: Date): { since: Date; restarted: boolean } {
  const continuing =
    endpoint.failingSince !== null &&
    endpoint.lastFailedAt !== null &&
    failedAt.getTime() - endpoint.lastFailedAt.getTime() <= streakGapMs;
  return continuing ? { since: endpoint.failingSince!, restarted: false } : { since: failedAt, restarted: true };
}

/** The endpoint has failed for 3 days straight as of `now` (its latest failure is recent, its streak old). */
export function failingTooLong(endpoint: FailureRecord, now: Date): boolean {
  if (!endpoint.failingSince || !endpoint.lastFailedAt) return false;
  if (now.getTime() - endpoint.lastFailedAt.getTime() > streakGapMs) return false;
  return now.getTime() - endpoint.failingSince.getTime() >= failingWindowMs;
}
