import type { Harness } from '../../helpers/harness';

/**
 * The shopper's side of a step-up without a browser: follows the payment's redirectUrl (the
 * engine's start link) to the processor's page, checks it is the page expected (`pageMarker`),
 * submits it (`outcome=approve|fail`, as every simulator's page takes it) and answers the link the
 * processor sends the browser back to (the engine's return link).
 */
export async function passAuthenticationPage(
  redirectUrl: string,
  outcome: 'approve' | 'fail',
  pageMarker: string,
): Promise<string> {
  const start = await fetch(redirectUrl, { redirect: 'manual' });
  expect(start.status).toBe(303);
  const page = start.headers.get('location')!;
  expect(page).toContain(pageMarker);
  const submitted = await submitAuthenticationPage(page, outcome);
  expect(submitted.status).toBe(303);
  return submitted.headers.get('location')!;
}

/** Submits a simulator's authentication page as the shopper's browser does (its redirect not followed). */
export function submitAuthenticationPage(page: string, outcome: 'approve' | 'fail'): Promise<Response> {
  return fetch(page, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: 'manual',
  });
}

/** The engine's return link as a script reads it (JSON): `{settled, payment}`. */
export async function landOnReturn(returnLink: string): Promise<any> {
  const landed = await fetch(returnLink, { headers: { accept: 'application/json' } });
  expect(landed.status).toBe(200);
  return landed.json();
}

/** One settlement: one `payment/succeeded` event for the payment and one attempt, approved. */
export async function expectSettledOnce(harness: Harness, accountId: string, paymentId: string): Promise<void> {
  const succeeded = await harness.db.event.findMany({ where: { accountId, eventType: 's_payment_succeeded' } });
  expect(succeeded.filter((event) => JSON.stringify(event).includes(paymentId))).toHaveLength(1);
  const attempts = await harness.db.paymentAttempt.findMany({ where: { paymentId } });
  expect(attempts).toEqual([expect.objectContaining({ attemptNumber: 1, outcome: 'approved' })]);
}

/** Ten browsers land on the same return link at once: every one is answered 200, settled and succeeded. */
export async function returnTenTimesAtOnce(returnLink: string, paymentId: string): Promise<void> {
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => fetch(returnLink, { headers: { accept: 'application/json' } })),
  );
  const bodies = await Promise.all(answers.map((response) => response.json() as Promise<any>));
  expect(answers.map((response) => response.status)).toEqual(Array(10).fill(200));
  for (const body of bodies)
    expect(body).toMatchObject({ settled: true, payment: { id: paymentId, status: 'succeeded' } });
}

/** A failed authentication settles the payment `authentication_failed` after one attempt: no cascade. */
export async function expectFailedAuthentication(harness: Harness, returnLink: string, paymentId: string) {
  expect(await landOnReturn(returnLink)).toMatchObject({
    settled: true,
    payment: { id: paymentId, status: 'failed', declineCode: 'authentication_failed' },
  });
  const attempts = await harness.db.paymentAttempt.findMany({ where: { paymentId } });
  expect(attempts.map((attempt) => attempt.attemptNumber)).toEqual([1]);
}
