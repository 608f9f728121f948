import { call } from '../../helpers/harness';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { completeChallenge, threeDsCards } from './threedsHelpers';

const api = '/api/public/v1';
const uuidPattern = /^[0-9a-f-]{36}$/;

describe('3DS authentication against the sandbox 3DS server', () => {
  const harness = useHarness();
  const t = usePaymentTenant(harness);

  const authenticate = async (card: string, extra: Record<string, unknown> = {}) =>
    call(harness, 'POST', `${api}/threeds/authenticate`, {
      token: t.token,
      body: {
        paymentInstrumentId: await t.instrument(card),
        storeId: t.storeId,
        purchaseInfo: { amount: 1999, currency: 'EUR' },
        ...extra,
      },
    });

  it('frictionless card: authenticated Y with every 3DS value, and its events', async () => {
    const answer = await authenticate(threeDsCards.frictionless, {
      cardholderInfo: { name: 'Ada', email: 'ada@example.com' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'authenticated',
      transStatus: 'Y',
      eci: '05',
      messageVersion: '2.2.0',
      cardBrand: 'visa',
      type: 'customer',
      source: 'authenticate',
      redirectUrl: null,
    });
    expect(answer.body.authenticationValue).toMatch(/^[A-Za-z0-9+/]{27}=$/);
    for (const field of ['dsTransID', 'acsTransID', 'threeDSServerTransID'])
      expect(answer.body[field]).toMatch(uuidPattern);
    const events = await harness.db.event.findMany({
      where: { properties: { path: ['threedsSessionId'], equals: answer.body.id } },
    });
    expect(events.map((event) => event.eventType).sort()).toEqual([
      's_threeds_session_created',
      's_threeds_session_succeeded',
    ]);
  });

  it('attempted card: authenticated A (ECI 06); rejected card: failed R with no authentication value', async () => {
    const attempted = await authenticate(threeDsCards.attempted);
    expect(attempted.body).toMatchObject({ status: 'authenticated', transStatus: 'A', eci: '06' });
    const rejected = await authenticate(threeDsCards.rejected);
    expect(rejected.body).toMatchObject({
      status: 'failed',
      transStatus: 'R',
      eci: '07',
      authenticationValue: null,
      failureReason: 'transStatus R',
    });
  });

  it('challenge card: challenge_required, then the challenge page completes it and the return endpoint reports it synchronously', async () => {
    const started = await authenticate(threeDsCards.challenge);
    expect(started.body).toMatchObject({ status: 'challenge_required', transStatus: 'C', eci: null });
    expect(started.body.redirectUrl).toContain(`${harness.sandboxUrl}/threeds/challenge/`);

    const { returnUrl, answer, html } = await completeChallenge(harness, started.body.redirectUrl, 'complete');
    expect(html).toContain('Complete authentication');
    expect(returnUrl).toContain(`${harness.url}${api}/threeds/${started.body.id}/return?token=`);
    expect(answer.status).toBe(200);
    expect(answer.body.threedsSession).toMatchObject({
      id: started.body.id,
      status: 'authenticated',
      transStatus: 'Y',
      eci: '05',
    });
    expect(answer.body.payment).toBeNull();
    const events = await harness.db.event.findMany({
      where: { properties: { path: ['threedsSessionId'], equals: started.body.id } },
    });
    expect(events.map((event) => event.eventType).sort()).toEqual([
      's_threeds_session_challenge_required',
      's_threeds_session_created',
      's_threeds_session_succeeded',
    ]);
  });

  it('a failed challenge fails the session, and the browser goes on to the merchant returnUrl', async () => {
    const started = await authenticate(threeDsCards.challenge, { returnUrl: 'https://shop.example/3ds-done?x=1' });
    const { answer } = await completeChallenge(harness, started.body.redirectUrl, 'fail');
    expect(answer.status).toBe(303);
    const merchantUrl = new URL(answer.location!);
    expect(merchantUrl.origin + merchantUrl.pathname).toBe('https://shop.example/3ds-done');
    expect(Object.fromEntries(merchantUrl.searchParams)).toEqual({
      x: '1',
      threedsSessionId: started.body.id,
      status: 'failed',
    });
    const row = await harness.db.threeDsSession.findUniqueOrThrow({ where: { id: started.body.id } });
    expect(row).toMatchObject({ status: 'failed', transStatus: 'N', failureReason: 'transStatus N' });
  });

  it('refuses a return link with a forged token or the token of another session (401)', async () => {
    const started = await authenticate(threeDsCards.challenge);
    const wrong = await call(harness, 'GET', `${api}/threeds/${started.body.id}/return?token=forged`);
    expect(wrong.status).toBe(401);
    const other = await authenticate(threeDsCards.challenge);
    const stolenToken = new URL(
      (
        await fetch(other.body.redirectUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'outcome=complete',
          redirect: 'manual',
        })
      ).headers.get('location')!,
    ).searchParams.get('token');
    const crossed = await call(harness, 'GET', `${api}/threeds/${started.body.id}/return?token=${stolenToken}`);
    expect(crossed.status).toBe(401);
    expect((await harness.db.threeDsSession.findUniqueOrThrow({ where: { id: started.body.id } })).status).toBe(
      'challenge_required',
    );
  });

  it('recurring-transaction needs recurringInfo {frequency 1-366, expiry date}', async () => {
    const missing = await authenticate(threeDsCards.frictionless, { authenticationType: 'recurring-transaction' });
    expect(missing.status).toBe(400);
    expect(missing.body.issues[0].path).toBe('recurringInfo');
    const badFrequency = await authenticate(threeDsCards.frictionless, {
      authenticationType: 'recurring-transaction',
      recurringInfo: { frequency: 367, expiry: '2030-01-01' },
    });
    expect(badFrequency.status).toBe(400);
    const good = await authenticate(threeDsCards.frictionless, {
      authenticationType: 'recurring-transaction',
      recurringInfo: { frequency: 30, expiry: '2030-01-01' },
    });
    expect(good.body).toMatchObject({
      status: 'authenticated',
      authenticationType: 'recurring-transaction',
      recurringInfo: { frequency: 30, expiry: '2030-01-01' },
    });
  });

  it('needs exactly one of sessionId / paymentInstrumentId, and refuses a session that is not pending (409)', async () => {
    const neither = await call(harness, 'POST', `${api}/threeds/authenticate`, {
      token: t.token,
      body: { purchaseInfo: { amount: 1, currency: 'EUR' } },
    });
    expect(neither.status).toBe(400);
    const done = await authenticate(threeDsCards.frictionless);
    const again = await call(harness, 'POST', `${api}/threeds/authenticate`, {
      token: t.token,
      body: { sessionId: done.body.id, purchaseInfo: { amount: 1, currency: 'EUR' } },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('THREEDS_SESSION_NOT_PENDING');
  });

  it('create-merchant-session: a 3RI session for a stored card, never challenged, type merchant', async () => {
    const instrument = await t.instrument(threeDsCards.challenge);
    const answer = await call(harness, 'POST', `${api}/threeds/create-merchant-session`, {
      token: t.token,
      body: { tokenId: 'tok_abc', paymentInstrumentId: instrument, storeId: t.storeId },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      type: 'merchant',
      source: 'merchant_session',
      status: 'authenticated',
      transStatus: 'Y',
      redirectUrl: null,
      paymentInstrumentId: instrument,
    });
    expect(answer.body).not.toHaveProperty('tokenId');
    const rejected = await call(harness, 'POST', `${api}/threeds/create-merchant-session`, {
      token: t.token,
      body: { tokenId: 'tok_abc', paymentInstrumentId: await t.instrument(threeDsCards.rejected), storeId: t.storeId },
    });
    expect(rejected.body).toMatchObject({ type: 'merchant', status: 'failed', transStatus: 'R' });
    const unknown = await call(harness, 'POST', `${api}/threeds/create-merchant-session`, {
      token: t.token,
      body: { tokenId: 'tok_abc', paymentInstrumentId: 'pi_doesnotexist', storeId: t.storeId },
    });
    expect(unknown.status).toBe(404);
  });
});
