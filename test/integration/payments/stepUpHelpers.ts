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
  const submitted = await fetch(page, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: 'manual',
  });
  expect(submitted.status).toBe(303);
  return submitted.headers.get('location')!;
}
