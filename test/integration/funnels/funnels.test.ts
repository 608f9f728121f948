import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';
import { funnelSteps } from './funnelFixtures';
import { api, createProduct, createStore, createTenants, ok, type Tenants } from '../commerce/commerceHelpers';

describe('funnels over HTTP', () => {
  const harness = useHarness();
  let t: Tenants;
  let storeId: string;
  let priceId: string;
  beforeAll(async () => {
    t = await createTenants(harness);
    storeId = (await createStore(harness, t.merchant.token)).id;
    priceId = (await createProduct(harness, t.merchant.token, storeId, [{ unitAmount: 990, currency: 'EUR' }]))
      .variants[0].prices[0].id;
  });

  it('creates, reads, lists, updates (step ids kept by key) and deletes a funnel', async () => {
    const funnel = await ok(harness, 'POST', '/funnels/create', t.merchant.token, {
      storeId,
      name: 'Summer',
      steps: funnelSteps(priceId, priceId),
    });
    expect(funnel.id).toMatch(/^funnelv2_/);
    const byKey = Object.fromEntries(funnel.steps.map((step: any) => [step.key, step]));
    expect(byKey.up).toMatchObject({ type: 'upsell', priceId, onAccept: byKey.thanks.id, onDecline: byKey.down.id });
    expect(byKey.land.id).toMatch(/^step_/);
    expect(await ok(harness, 'GET', `/funnels/${funnel.id}`, t.merchant.token)).toEqual(funnel);
    const list = await ok(harness, 'POST', '/funnels/list', t.merchant.token, { storeId });
    expect(list.data.map((row: any) => row.id)).toEqual([funnel.id]);

    const shorter = [
      { key: 'land', type: 'landing', next: 'pay' },
      { key: 'pay', type: 'checkout', next: 'thanks' },
      { key: 'thanks', type: 'thankyou' },
    ];
    const updated = await ok(harness, 'POST', '/funnels/update', t.merchant.token, {
      id: funnel.id,
      data: { name: 'Winter', steps: shorter },
    });
    expect(updated.name).toBe('Winter');
    expect(updated.steps.map((step: any) => step.id)).toEqual([byKey.land.id, byKey.pay.id, byKey.thanks.id]);

    const deleted = await ok(harness, 'DELETE', `/funnels/${funnel.id}`, t.merchant.token);
    expect(deleted).toEqual({ id: funnel.id, deleted: true });
    expect((await call(harness, 'GET', `${api}/funnels/${funnel.id}`, { token: t.merchant.token })).status).toBe(404);
  });

  it('refuses an invalid graph with one issue per problem, and an unknown price with 404', async () => {
    const bad = await call<any>(harness, 'POST', `${api}/funnels/create`, {
      token: t.merchant.token,
      body: {
        storeId,
        name: 'Broken',
        steps: [
          { key: 'land', type: 'landing', next: 'nowhere' },
          { key: 'thanks', type: 'thankyou' },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_FUNNEL_GRAPH');
    expect(bad.body.issues).toEqual([
      { path: 'body.steps.0.next', message: 'next names no step of this funnel: nowhere' },
    ]);
    const unknownPrice = await call<any>(harness, 'POST', `${api}/funnels/create`, {
      token: t.merchant.token,
      body: { storeId, name: 'No price', steps: funnelSteps('price_missing', priceId) },
    });
    expect(unknownPrice.status).toBe(404);
  });

  it("hides another account's funnels", async () => {
    const funnel = await ok(harness, 'POST', '/funnels/create', t.merchant.token, {
      storeId,
      name: 'Mine',
      steps: funnelSteps(priceId, priceId),
    });
    expect((await call(harness, 'GET', `${api}/funnels/${funnel.id}`, { token: t.other.token })).status).toBe(404);
    expect(
      (await call(harness, 'POST', `${api}/funnels/list`, { token: t.other.token, body: { storeId } })).status,
    ).toBe(404);
  });

  it('stores step events, moves a named session, and reports views, enters and conversions per step', async () => {
    const funnel = await ok(harness, 'POST', '/funnels/create', t.merchant.token, {
      storeId,
      name: 'Tracked',
      steps: funnelSteps(priceId, priceId),
    });
    const stepId = (key: string): string => funnel.steps.find((step: any) => step.key === key).id;
    const session = await ok(harness, 'POST', '/funnel-sessions', t.merchant.token, { funnelId: funnel.id });
    const track = (body: Record<string, unknown>) =>
      ok(harness, 'POST', '/funnel-tracking/step', t.merchant.token, { storeId, ...body });
    expect(await track({ eventType: 'view', stepId: stepId('land'), deviceType: 'mobile' })).toEqual({
      success: true,
      eventType: 'view',
      stepId: stepId('land'),
    });
    await track({ eventType: 'view', stepId: stepId('land'), sessionId: session.id, environment: 'production' });
    await track({ eventType: 'enter', stepId: stepId('pay'), sessionId: session.id, environment: 'production' });
    await track({ eventType: 'convert', stepId: stepId('pay'), sessionId: session.id, environment: 'production' });
    await track({ eventType: 'view', stepId: stepId('pay'), funnelTracking: false });
    const moved = await ok(harness, 'GET', `/funnel-sessions/${session.id}`, t.merchant.token);
    expect(moved).toMatchObject({ status: 'active', currentStepId: stepId('pay') });

    const report = await ok(harness, 'GET', `/funnels/${funnel.id}/report`, t.merchant.token);
    const row = (key: string) => report.steps.find((step: any) => step.key === key);
    expect(row('land')).toMatchObject({ views: 2, enters: 0, conversions: 0, sessions: 1 });
    expect(row('pay')).toMatchObject({ views: 0, enters: 1, conversions: 1, sessions: 1 });
    expect(row('thanks')).toMatchObject({ views: 0, enters: 0, conversions: 0, sessions: 0 });
    const production = await ok(
      harness,
      'GET',
      `/funnels/${funnel.id}/report?environment=production`,
      t.merchant.token,
    );
    expect(production.steps.find((step: any) => step.key === 'land').views).toBe(1);

    const unknownStep = await call<any>(harness, 'POST', `${api}/funnel-tracking/step`, {
      token: t.merchant.token,
      body: { storeId, eventType: 'view', stepId: 'step_unknown' },
    });
    expect(unknownStep.status).toBe(404);
    const badType = await call<any>(harness, 'POST', `${api}/funnel-tracking/step`, {
      token: t.merchant.token,
      body: { storeId, eventType: 'click', stepId: stepId('land') },
    });
    expect(badType.status).toBe(400);
  });
});
