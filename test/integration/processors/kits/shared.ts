import type { ProcessorKit } from './types';

/** POSTs a test control (not the vendor's API) to a simulator; throws unless it answers `expected`. */
export async function simulatorControl(url: string, body: unknown, expected: number): Promise<void> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (answer.status !== expected) throw new Error(`simulator control ${url} answered ${answer.status}`);
}

/** Card numbers every simulator treats alike (they mirror each other where the outcome is the same). */
export const sharedCards = {
  approve: '4242424242424242',
  approveOther: '5555555555554444',
  requires3ds: '4000000000003220',
} as const;

/** Declines every simulator answers alike; each kit lists its own after these (the first is a plain hard decline). */
export const sharedDeclines: ProcessorKit['cards']['declines'] = [
  ['4000000000000002', 'card_declined', 'hard_decline'],
  ['4000000000009995', 'insufficient_funds', 'hard_decline'],
  ['4000000000000119', 'processing_error', 'technical'],
  ['4242424242424241', 'incorrect_number', 'hard_decline'],
];
