import { newId } from '../../../src/domain/ids';
import { createMerchant } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { createStore, loginCodeMail, portalLogin } from '../subscriptions/subscriptionsFixtures';
import { usePortalWorld } from './portalWorld';

/** Portal sign-in: e-mail codes, logout, live mode without SMTP, session expiry and guess caps. */
describe('customer portal: sign-in', () => {
  const world = usePortalWorld();

  it('logs in with a one-time code read from the sandbox outbox; wrong codes, logout and unknown e-mails are refused', async () => {
    const { harness, storeA, customerId, goodCardId, email, portal } = world;
    const login = await call(harness, 'POST', '/api/v1/cms/session/login', { body: { storeId: storeA, email } });
    expect(login.status).toBe(200);
    const message = await loginCodeMail(harness, email, login.body.loginId);
    expect(message.text).toContain(message.meta.code);
    const wrongCode = message.meta.code === '000000' ? '111111' : '000000';
    expect(
      (
        await call(harness, 'POST', '/api/v1/cms/session/confirm', {
          body: { loginId: login.body.loginId, code: wrongCode },
        })
      ).status,
    ).toBe(401);
    const confirmed = await call(harness, 'POST', '/api/v1/cms/session/confirm', {
      body: { loginId: login.body.loginId, code: message.meta.code },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ kind: 'customer', emailVerified: true, customerId, storeId: storeA });
    // A code works once.
    expect(
      (
        await call(harness, 'POST', '/api/v1/cms/session/confirm', {
          body: { loginId: login.body.loginId, code: message.meta.code },
        })
      ).status,
    ).toBe(401);

    const token = confirmed.body.token as string;
    expect((await portal(token, '/payment-methods/default', { paymentMethodId: goodCardId })).status).toBe(200);
    expect(
      (await call(harness, 'POST', '/api/v1/cms/session/logout', { headers: { 'x-cms-token': token } })).status,
    ).toBe(200);
    expect((await portal(token, '/payment-methods/default', { paymentMethodId: goodCardId })).status).toBe(401);
    expect((await portal('cms_nonsense', '/payment-methods/default', { paymentMethodId: goodCardId })).status).toBe(
      401,
    );
    expect((await call(harness, 'POST', '/api/v1/portal/switch', { body: {} })).status).toBe(401);

    const stranger = `nobody-${Date.now()}@example.com`;
    const unknown = await call(harness, 'POST', '/api/v1/cms/session/login', {
      body: { storeId: storeA, email: stranger },
    });
    expect(unknown.status).toBe(200);
    // A code is handed to the mailer before the answer and arrives after it: once a customer's later
    // code has arrived, a code (wrongly) mailed to the stranger would have arrived too.
    const later = await call(harness, 'POST', '/api/v1/cms/session/login', { body: { storeId: storeA, email } });
    await loginCodeMail(harness, email, later.body.loginId);
    expect(
      ((await (await fetch(`${harness.sandboxUrl}/outbox/messages?to=${stranger}`)).json()) as any).data,
    ).toHaveLength(0);
  });

  it('refuses live-mode sign-in without SMTP instead of dropping the code into the sandbox outbox', async () => {
    const { harness } = world;
    const live = await createMerchant(harness.db, { mode: 'live' });
    const liveStore = await createStore(harness.db, live, 'Live Shop');
    const email = `live-${Date.now()}@example.com`;
    await harness.db.customer.create({
      data: { id: newId('customer'), accountId: live.accountId, mode: 'live', storeId: liveStore.id, email },
    });
    const login = await call(harness, 'POST', '/api/v1/cms/session/login', { body: { storeId: liveStore.id, email } });
    expect(login.status).toBe(503);
    expect(login.body.code).toBe('EMAIL_NOT_CONFIGURED');
    expect(
      ((await (await fetch(`${harness.sandboxUrl}/outbox/messages?to=${email}`)).json()) as any).data,
    ).toHaveLength(0);
    expect(await harness.db.portalLoginCode.count({ where: { email } })).toBe(0);
  });

  it('expires sessions and caps code guesses', async () => {
    const { harness, storeA, customerId, goodCardId, email, portal } = world;
    const token = await portalLogin(harness, storeA, email);
    const session = await harness.db.portalSession.findFirstOrThrow({
      where: { customerId },
      orderBy: { createdAt: 'desc' },
    });
    await harness.db.portalSession.update({
      where: { id: session.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await portal(token, '/payment-methods/default', { paymentMethodId: goodCardId });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired/);

    const login = await call(harness, 'POST', '/api/v1/cms/session/login', { body: { storeId: storeA, email } });
    const code = (await loginCodeMail(harness, email, login.body.loginId)).meta.code!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(
        (
          await call(harness, 'POST', '/api/v1/cms/session/confirm', {
            body: { loginId: login.body.loginId, code: wrong },
          })
        ).status,
      ).toBe(401);
    }
    // Five wrong guesses burn the code: even the right one no longer works.
    expect(
      (await call(harness, 'POST', '/api/v1/cms/session/confirm', { body: { loginId: login.body.loginId, code } }))
        .status,
    ).toBe(401);
  });
});
