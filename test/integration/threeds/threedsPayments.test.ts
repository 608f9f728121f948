import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { ok } from '../commerce/commerceHelpers';
import { cards, createPaymentTenant, payV2, type PaymentTenant } from '../payments/paymentsFixtures';
import { completeChallenge, threeDsCards } from './threedsHelpers';

const api = '/api/public/v1';
// The engine's public URL as customers' browsers see it; the test maps it onto the harness.
const publicBaseUrl = 'http://engine.test';

describe('3-D Secure inside payments (real Postgres, Temporal dev server, sandbox acquirer + 3DS server)', () => {
  const harness = useHarness({ PUBLIC_BASE_URL: publicBaseUrl });

  async function tenant(options: { processors?: number; threeDsEnabled?: boolean } = {}): Promise<PaymentTenant> {
    const t = await createPaymentTenant(harness, {
      processors: options.processors ?? 1,
      flow: { threeDsEnabled: options.threeDsEnabled ?? true },
    });
    for (const processorId of t.processorIds)
      await ok(harness, 'POST', '/processors/update', t.token, { processorId, updatedData: { enable3DS: true } });
    return t;
  }
  const fromValues = (t: PaymentTenant, body: Record<string, unknown>) =>
    ok(harness, 'POST', '/threeds/create-from-values', t.token, body);

  it('forwards externally produced values to the acquirer byte for byte', async () => {
    const t = await tenant();
    // Unusual but valid values: any re-encoding, trimming or case change would show.
    const sent = {
      eci: '02',
      authenticationValue: 'kBOQn/+7y5wYgB0EAAAAAAAAAAA=\u00e9 ',
      transStatus: 'A',
      dsTransID: 'F25084F0-5B16-4C0A-AE5D-b24808a95e4b',
      acsTransID: ' acs-1',
      threeDSServerTransID: 'x'.repeat(36),
      messageVersion: '2.1.0',
      cardBrand: 'mastercard',
    };
    const session = await fromValues(t, sent);
    const checkout = await t.checkout();
    const paid = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.approve),
      threedsSessionId: session.id,
    });
    expect(paid.status).toBe(200);
    expect(paid.body.payment.status).toBe('succeeded');
    const [entry] = await t.ledger(t.processorIds[0]!, { operation: 'authorize' });
    const { cardBrand: _notForwarded, ...forwarded } = sent;
    expect(entry.threeDs).toBe(JSON.stringify({ ...forwarded, type: 'customer' }));
    const received = JSON.parse(entry.threeDs);
    for (const [field, value] of Object.entries(forwarded))
      expect(Buffer.from(received[field]).equals(Buffer.from(value))).toBe(true);
  });

  it('does not forward values when the flow has 3DS off', async () => {
    const t = await tenant({ threeDsEnabled: false });
    const session = await fromValues(t, { eci: '05', authenticationValue: 'AAAA', dsTransID: 'ds-1' });
    const checkout = await t.checkout();
    const paid = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.approve),
      threedsSessionId: session.id,
    });
    expect(paid.body.payment.status).toBe('succeeded');
    const [entry] = await t.ledger(t.processorIds[0]!, { operation: 'authorize' });
    expect(entry.threeDs).toBeNull();
  });

  it('forwards values per processor: never to a hosted-3DS processor, nor to one with 3DS off', async () => {
    const t = await tenant({ processors: 3 });
    const [external, hosted, threeDsOff] = t.processorIds as [string, string, string];
    await ok(harness, 'POST', '/processors/update', t.token, {
      processorId: hosted,
      updatedData: { type: 'sandbox_hosted3ds' },
    });
    await ok(harness, 'POST', '/processors/update', t.token, {
      processorId: threeDsOff,
      updatedData: { enable3DS: false },
    });
    await t.outage(external, true);
    const card = await t.instrument(cards.approve);
    const session = await fromValues(t, { eci: '05', authenticationValue: 'AAAA', dsTransID: 'ds-1' });

    const viaHosted = await payV2(harness, t.token, {
      checkoutSessionId: (await t.checkout()).id,
      paymentInstrumentId: card,
      threedsSessionId: session.id,
    });
    expect(viaHosted.body.payment.status).toBe('succeeded');
    const [hostedEntry] = await t.ledger(hosted, { operation: 'authorize' });
    expect(hostedEntry.threeDs).toBeNull();

    await t.outage(hosted, true);
    const viaThreeDsOff = await payV2(harness, t.token, {
      checkoutSessionId: (await t.checkout()).id,
      paymentInstrumentId: card,
      threedsSessionId: session.id,
    });
    expect(viaThreeDsOff.body.payment.status).toBe('succeeded');
    const [offEntry] = await t.ledger(threeDsOff, { operation: 'authorize' });
    expect(offEntry.threeDs).toBeNull();

    await t.outage(external, false);
    const viaExternal = await payV2(harness, t.token, {
      checkoutSessionId: (await t.checkout()).id,
      paymentInstrumentId: card,
      threedsSessionId: session.id,
    });
    expect(viaExternal.body.payment.status).toBe('succeeded');
    const [externalEntry] = await t.ledger(external, { operation: 'authorize' });
    expect(JSON.parse(externalEntry.threeDs)).toMatchObject({
      eci: '05',
      authenticationValue: 'AAAA',
      dsTransID: 'ds-1',
    });
  });

  it('declines a payment carrying a failed session at the 3DS step: no processor called', async () => {
    const t = await tenant({ processors: 2 });
    const session = await fromValues(t, { eci: '07', authenticationValue: 'AAAA', transStatus: 'N' });
    expect(session.status).toBe('failed');
    const checkout = await t.checkout();
    const paid = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(cards.approve),
      threedsSessionId: session.id,
    });
    expect(paid.status).toBe(402);
    expect(paid.body.code).toBe('threeds_authentication_failed');
    const paymentId = paid.body.data.paymentId;
    expect(await harness.db.paymentAttempt.count({ where: { paymentId } })).toBe(0);
    for (const processorId of t.processorIds) expect(await t.ledger(processorId)).toEqual([]);
    expect(await harness.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({
      status: 'failed',
      threedsSessionId: session.id,
    });
  });

  it('uses a 3RI session with initiatedBy merchant, and refuses it with initiatedBy customer (400)', async () => {
    const t = await tenant();
    const instrument = await t.instrument(cards.approve);
    const session = await ok(harness, 'POST', '/threeds/create-merchant-session', t.token, {
      tokenId: 'tok_rebill',
      paymentInstrumentId: instrument,
      storeId: t.storeId,
    });
    const body = {
      storeId: t.storeId,
      amount: 990,
      currency: 'EUR',
      paymentInstrumentId: instrument,
      customerId: t.customerId,
      threedsSessionId: session.id,
    };
    const mismatch = await call(harness, 'POST', `${api}/payments/process`, {
      token: t.token,
      body: { ...body, initiatedBy: 'customer' },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({
      code: 'THREEDS_SESSION_TYPE_MISMATCH',
      message: expect.stringContaining('initiatedBy "merchant"'),
    });
    const paid = await call(harness, 'POST', `${api}/payments/process`, {
      token: t.token,
      body: { ...body, initiatedBy: 'merchant' },
    });
    expect(paid.status).toBe(200);
    expect(paid.body.payment.status).toBe('succeeded');
    const [entry] = await t.ledger(t.processorIds[0]!, { operation: 'authorize' });
    expect(JSON.parse(entry.threeDs)).toMatchObject({
      type: 'merchant',
      transStatus: 'Y',
      eci: session.eci,
      authenticationValue: session.authenticationValue,
      dsTransID: session.dsTransID,
    });
  });

  it('challenges once, answers requires_action, and after the challenge cascades without challenging again', async () => {
    const t = await tenant({ processors: 2 });
    await t.outage(t.processorIds[0]!, true);
    const checkout = await t.checkout();
    const started = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(threeDsCards.challenge),
    });
    expect(started.status).toBe(200);
    expect(started.body.payment.status).toBe('requires_action');
    expect(started.body.redirectUrl).toContain(`${harness.sandboxUrl}/threeds/challenge/`);
    const paymentId = started.body.payment.id;

    const { returnUrl, answer } = await completeChallenge(harness, started.body.redirectUrl, 'complete', publicBaseUrl);
    expect(returnUrl.startsWith(`${publicBaseUrl}${api}/threeds/3ds_`)).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.body.threedsSession).toMatchObject({
      status: 'authenticated',
      transStatus: 'Y',
      paymentId,
      source: 'payment',
    });
    expect(answer.body.payment).toMatchObject({ id: paymentId, status: 'succeeded' });

    const sessions = await harness.db.threeDsSession.findMany({ where: { paymentId } });
    expect(sessions).toHaveLength(1);
    const attempts = await harness.db.paymentAttempt.findMany({
      where: { paymentId },
      orderBy: { attemptNumber: 'asc' },
    });
    expect(attempts.map((a) => [a.processorId, a.outcome])).toEqual([
      [t.processorIds[0], 'error'],
      [t.processorIds[1], 'approved'],
    ]);
    const [approved] = await t.ledger(t.processorIds[1]!, { operation: 'authorize' });
    expect(JSON.parse(approved.threeDs)).toMatchObject({
      transStatus: 'Y',
      authenticationValue: sessions[0]!.authenticationValue,
      dsTransID: sessions[0]!.dsTransID,
    });
    // A second return (a reloaded page) reports the same result and starts nothing new.
    const again = await fetch(returnUrl.replace(publicBaseUrl, harness.url));
    expect(((await again.json()) as any).payment).toMatchObject({ id: paymentId, status: 'succeeded' });
    expect(await harness.db.threeDsSession.count({ where: { paymentId } })).toBe(1);
  });

  it('a payment whose challenge fails is declined with no processor called', async () => {
    const t = await tenant();
    const checkout = await t.checkout();
    const started = await payV2(harness, t.token, {
      checkoutSessionId: checkout.id,
      paymentInstrumentId: await t.instrument(threeDsCards.challenge),
    });
    const { answer } = await completeChallenge(harness, started.body.redirectUrl, 'fail', publicBaseUrl);
    expect(answer.body.payment).toMatchObject({
      id: started.body.payment.id,
      status: 'failed',
      declineCode: 'threeds_authentication_failed',
    });
    expect(await t.ledger(t.processorIds[0]!)).toEqual([]);
  });
});
