import type { Harness } from '../../helpers/harness';

export const threeDsCards = {
  challenge: '4000000000003220',
  frictionless: '4000000000003063',
  attempted: '4000000000003055',
  rejected: '4000000000003048',
};

/**
 * Plays the cardholder's browser through a sandbox challenge: opens the ACS page, submits
 * complete or fail, and follows the ACS redirect to the engine's return endpoint (engineUrl maps
 * a PUBLIC_BASE_URL the test machine cannot resolve onto the harness). Returns that answer.
 */
export async function completeChallenge(
  harness: Harness,
  challengeUrl: string,
  outcome: 'complete' | 'fail',
  engineUrl?: string,
) {
  const page = await fetch(challengeUrl);
  const html = await page.text();
  if (!html.includes('name="outcome"')) throw new Error('not a challenge page');
  const submitted = await fetch(challengeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: 'manual',
  });
  if (submitted.status !== 303) throw new Error(`ACS answered ${submitted.status}, not a redirect`);
  const location = submitted.headers.get('location')!;
  const reachable = engineUrl ? location.replace(engineUrl, harness.url) : location;
  // Not followed: a session with a merchant returnUrl answers 303 there (a page the test cannot reach).
  const response = await fetch(reachable, { redirect: 'manual' });
  const text = await response.text();
  const answer = {
    status: response.status,
    body: response.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as any) : text,
    location: response.headers.get('location'),
  };
  return { returnUrl: location, answer, html };
}
