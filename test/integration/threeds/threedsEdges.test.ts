import { isDomainError } from '../../../src/errors';
import { sessionAlreadyFinalCode, transitionSession } from '../../../src/threeds/sessions';
import { addCrmKey } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { usePaymentTenant } from '../../helpers/fixtures/payments';
import { useHarness } from '../../helpers/useHarness';
import { ok } from '../commerce/commerceHelpers';
import { cards, payV2 } from '../payments/paymentsFixtures';
import { completeChallenge, threeDsCards } from './threedsHelpers';

const api = '/api/public/v1';

/** 3DS edges. The harness has no PUBLIC_BASE_URL: return links must use the URL the API was called on. */
describe('3-D Secure edges (real API, Temporal, sandbox 3DS server)', () => {
  const harness = useHarness();
  const t = usePaymentTenant(harness, { flow: { threeDsEnabled: true } });
  beforeAll(async () => {
    await ok(harness, 'POST', '/processors/update', t.token, {
      processorId: t.processorIds[0],
      updatedData: { enable3DS: true },
    });
  });

  const fromValues = (body: Record<string, unknown> = {}) =>
    ok(harness, 'POST', '/threeds/create-from-values', t.token, {
      eci: '05',
      authenticationValue: 'AAAA',
      dsTransID: 'ds-1',
      ...body,
    });
  const merchantSession = async (instrument: string) =>
    ok(harness, 'POST', '/threeds/create-merchant-session', t.token, {
      tokenId: 'tok_1',
      paymentInstrumentId: instrument,
      storeId: t.storeId,
    });

  it('refuses a customer session with initiatedBy merchant on /payments/process (400), before any payment exists', async () => {
    const session = await fromValues();
    const instrument = await t.instrument(cards.approve);
    const answer = await call(harness, 'POST', `${api}/payments/process`, {
      token: t.token,
      body: {
        storeId: t.storeId,
        amount: 500,
        currency: 'EUR',
        paymentInstrumentId: instrument,
        customerId: t.customerId,
        initiatedBy: 'merchant',
        threedsSessionId: session.id,
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'THREEDS_SESSION_TYPE_MISMATCH',
      message: expect.stringContaining('use initiatedBy "customer"'),
    });
    expect(await harness.db.payment.count({ where: { threedsSessionId: session.id } })).toBe(0);
  });

  it('refuses the type / initiatedBy mismatch on pay-v2 both ways, and leaves the checkout open', async () => {
    const instrument = await t.instrument(cards.approve);
    const checkout = await t.checkout();
    const merchant = await merchantSession(instrument);
    const withCustomer = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: instrument,
      threedsSessionId: merchant.id,
    });
    expect(withCustomer.status).toBe(400);
    expect(withCustomer.body).toMatchObject({
      code: 'THREEDS_SESSION_TYPE_MISMATCH',
      message: expect.stringContaining('initiatedBy "merchant"'),
    });

    const customer = await fromValues();
    const withMerchant = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: instrument,
      initiatedBy: 'merchant',
      threedsSessionId: customer.id,
    });
    expect(withMerchant.status).toBe(400);
    expect(withMerchant.body.code).toBe('THREEDS_SESSION_TYPE_MISMATCH');

    expect(await harness.db.payment.count({ where: { checkoutSessionId: checkout.id } })).toBe(0);
    const paid = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: instrument,
      threedsSessionId: customer.id,
    });
    expect(paid.body.payment.status).toBe('succeeded');
  });

  it('keeps authenticate and create-merchant-session to org:admin (403 for a member key)', async () => {
    const member = await addCrmKey(harness.db, t.merchant, { role: 'org:member' });
    const instrument = await t.instrument(threeDsCards.frictionless);
    const authenticate = await call(harness, 'POST', `${api}/threeds/authenticate`, {
      token: member,
      body: { paymentInstrumentId: instrument, storeId: t.storeId, purchaseInfo: { amount: 100, currency: 'EUR' } },
    });
    const merchant = await call(harness, 'POST', `${api}/threeds/create-merchant-session`, {
      token: member,
      body: { tokenId: 'tok_1', paymentInstrumentId: instrument, storeId: t.storeId },
    });
    expect([authenticate.status, authenticate.body.code]).toEqual([403, 'ROLE_REQUIRED']);
    expect([merchant.status, merchant.body.code]).toEqual([403, 'ROLE_REQUIRED']);
    expect(await harness.db.threeDsSession.count({ where: { paymentInstrumentId: instrument } })).toBe(0);
  });

  it('GET /payments/{id} shows requires_action while the challenge is open; the return link uses the URL the API was called on', async () => {
    const checkout = await t.checkout();
    const started = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(threeDsCards.challenge),
    });
    expect(started.body.payment.status).toBe('requires_action');
    const paymentId: string = started.body.payment.id;
    const open = await call(harness, 'GET', `${api}/payments/${paymentId}`, { token: t.token });
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({
      id: paymentId,
      status: 'requires_action',
      redirectUrl: started.body.redirectUrl,
    });
    expect(open.body.attempts).toEqual([]);

    // Not mapped onto the harness: the link the ACS sends the browser to must already reach it.
    const { returnUrl, answer } = await completeChallenge(harness, started.body.redirectUrl, 'complete');
    expect(returnUrl.startsWith(`${harness.url}${api}/threeds/3ds_`)).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.body.payment).toMatchObject({ id: paymentId, status: 'succeeded' });
    const done = await call(harness, 'GET', `${api}/payments/${paymentId}`, { token: t.token });
    expect(done.body.status).toBe('succeeded');
  });

  it('dispatches 3DS events right after commit, not at the next outbox sweep', async () => {
    const session = await fromValues();
    const events = await harness.db.event.findMany({
      where: { properties: { path: ['threedsSessionId'], equals: session.id } },
    });
    expect(events.map((event) => event.eventType).sort()).toEqual([
      's_threeds_session_created',
      's_threeds_session_succeeded',
    ]);
    // The sweep only takes events older than 10 s; these were dispatched before the answer.
    expect(events.every((event) => event.processedAt !== null)).toBe(true);

    const checkout = await t.checkout();
    const started = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(threeDsCards.challenge),
    });
    const challenge = await harness.db.event.findFirstOrThrow({
      where: {
        eventType: 's_threeds_session_challenge_required',
        properties: { path: ['paymentId'], equals: started.body.payment.id },
      },
    });
    expect(challenge.processedAt).not.toBeNull();
  });

  it('refuses to move a finished session with a conflict the activities recognise by its code, and leaves it as it was', async () => {
    const session = await fromValues();
    const refused = await transitionSession(harness.db, session.id, {
      status: 'failed',
      failureReason: 'challenge_timeout',
    }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isDomainError(refused, sessionAlreadyFinalCode)).toBe(true);
    expect(refused).toMatchObject({ kind: 'conflict' });
    expect(await harness.db.threeDsSession.findUniqueOrThrow({ where: { id: session.id } })).toMatchObject({
      status: 'authenticated',
      failureReason: null,
    });
  });

  it.each([
    ['an expiry that is not a calendar date', { frequency: 30, expiry: '2030-02-30' }, /real calendar date/],
    ['an expiry in the past', { frequency: 30, expiry: '2020-01-01' }, /after today/],
    ['an expiry of today', { frequency: 30, expiry: new Date().toISOString().slice(0, 10) }, /after today/],
  ])('refuses recurringInfo with %s (400)', async (_label, recurringInfo, message) => {
    const answer = await call(harness, 'POST', `${api}/threeds/authenticate`, {
      token: t.token,
      body: {
        paymentInstrumentId: await t.instrument(threeDsCards.frictionless),
        purchaseInfo: { amount: 100, currency: 'EUR' },
        authenticationType: 'recurring-transaction',
        recurringInfo,
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.issues).toEqual([
      expect.objectContaining({ path: 'recurringInfo.expiry', message: expect.stringMatching(message) }),
    ]);
  });

  it.each(['javascript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>', 'ftp://shop.example/done'])(
    'refuses returnUrl %s (400)',
    async (returnUrl) => {
      const answer = await call(harness, 'POST', `${api}/threeds/authenticate`, {
        token: t.token,
        body: {
          paymentInstrumentId: await t.instrument(threeDsCards.challenge),
          purchaseInfo: { amount: 100, currency: 'EUR' },
          returnUrl,
        },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.issues).toEqual([
        expect.objectContaining({
          path: 'returnUrl',
          message: expect.stringContaining('returnUrl must be an http or https URL'),
        }),
      ]);
    },
  );
});
