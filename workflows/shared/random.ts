import { uuid4 } from '@temporalio/workflow';

/**
 * A fraction in [0, 1) from the workflow's seeded generator (uuid4 is replay-safe), for choices
 * such as a weighted processor pick that must come out the same on every replay.
 */
export function deterministicFraction(): number {
  const hex = uuid4().replace(/-/g, '').slice(0, 13);
  return parseInt(hex, 16) / 2 ** 52;
}
