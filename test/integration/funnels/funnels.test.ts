import { call } from '../../helpers/harness';
import { useShop } from '../../helpers/fixtures/shop';
import { useHarness } from '../../helpers/useHarness';
import { funnelSteps } from './funnelFixtures';
import { api, ok } from '../commerce/commerceHelpers';

describe('funnels over HTTP', () => {
  const harness = useHarness();
  const shop = useShop(harness, { price: { unitAmount: 990, currency: 'EUR' } });

  it('creates, reads, lists, updates (step ids kept by key) and deletes a funnel', async () => {
    const funnel = await ok(harness, 'POST', '/funnels/create', shop.merchant.token, {
      storeId: shop.storeId,
      name: 'Summer',
      steps: funnelSteps(shop.priceId, shop.priceId),
    });
    expect(funnel.id).toMatch(/^funnelv2_/);
    const byKey = Object.fromEntries(funnel.steps.map((step: any) => [step.key, step]));
    expect(byKey.up).toMatchObject({
      type: 'upsell',
      priceId: shop.priceId,
      onAccept: byKey.thanks.id,
      onDecline: byKey.down.id,
    });
    expect(byKey.land.id).toMatch(/^step_/);
    expect(await ok(harness, 'GET', `/funnels/${funnel.id}`, shop.merchant.token)).toEqual(funnel);
    const list = await ok(harness, 'POST', '/funnels/list', shop.merchant.token, { storeId: shop.storeId });
    expect(list.data.map((row: any) => row.id)).toEqual([funnel.id]);

    const shorter = [
      { key: 'land', type: 'landing', next: 'pay' },
      { key: 'pay', type: 'checkout', next: 'thanks' },
      { key: 'thanks', type: 'thankyou' },
    ];
    const updated = await ok(harness, 'POST', '/funnels/update', shop.merchant.token, {
      id: funnel.id,
      data: { name: 'Winter', steps: shorter },
    });
    expect(updated.name).toBe('Winter');
    expect(updated.steps.map((step: any) => step.id)).toEqual([byKey.land.id, byKey.pay.id, byKey.thanks.id]);

    const deleted = await ok(harness, 'DELETE', `/funnels/${funnel.id}`, shop.merchant.token);
    expect(deleted).toEqual({ id: funnel.id, deleted: true });
    expect((await call(harness, 'GET', `${api}/funnels/${funnel.id}`, { token: shop.merchant.token })).status).toBe(
      404,
    );
  });

  it('refuses an invalid graph with one issue per problem, and an unknown price with 404', async () => {
    const bad = await call<any>(harness, 'POST', `${api}/funnels/create`, {
      token: shop.merchant.token,
      body: {
        storeId: shop.storeId,
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
      token: shop.merchant.token,
      body: { storeId: shop.storeId, name: 'No price', steps: funnelSteps('price_missing', shop.priceId) },
    });
    expect(unknownPrice.status).toBe(404);
  });

  it("hides another account's funnels", async () => {
    const funnel = await ok(harness, 'POST', '/funnels/create', shop.merchant.token, {
      storeId: shop.storeId,
      name: 'Mine',
      steps: funnelSteps(shop.priceId, shop.priceId),
    });
    expect((await call(harness, 'GET', `${api}/funnels/${funnel.id}`, { token: shop.other.token })).status).toBe(404);
    expect(
      (await call(harness, 'POST', `${api}/funnels/list`, { token: shop.other.token, body: { storeId: shop.storeId } }))
        .status,
    ).toBe(404);
  });

  it('stores step events, moves a named session, and reports views, enters and conversions per step', async () => {
    const funnel = await ok(harness, 'POST', '/funnels/create', shop.merchant.token, {
      storeId: shop.storeId,
      name: 'Tracked',
      steps: funnelSteps(shop.priceId, shop.priceId),
    });
    const stepId = (key: string): string => funnel.steps.find((step: any) => step.key === key).id;
    const session = await ok(harness, 'POST', '/funnel-sessions', shop.merchant.token, { funnelId: funnel.id });
    const track = (body: Record<string, unknown>) =>
      ok(harness, 'POST', '/funnel-tracking/step', shop.merchant.token, { storeId: shop.storeId, ...body });
    expect(await track({ eventType: 'view', stepId: stepId('land'), deviceType: 'mobile' })).toEqual({
      success: true,
      eventType: 'view',
      stepId: stepId('land'),
    });
    await track({ eventType: 'view', stepId: stepId('land'), sessionId: session.id, environment: 'production' });
    await track({ eventType: 'enter', stepId: stepId('pay'), sessionId: session.id, environment: 'production' });
    await track({ eventType: 'convert', stepId: stepId('pay'), sessionId: session.id, environment: 'production' });
    await track({ eventType: 'view', stepId: stepId('pay'), funnelTracking: false });
    const moved = await ok(harness, 'GET', `/funnel-sessions/${session.id}`, shop.merchant.token);
    expect(moved).toMatchObject({ status: 'active', currentStepId: stepId('pay') });

    const report = await ok(harness, 'GET', `/funnels/${funnel.id}/report`, shop.merchant.token);
    const row = (key: string) => report.steps.find((step: any) => step.key === key);
    expect(row('land')).toMatchObject({ views: 2, enters: 0, conversions: 0, sessions: 1 });
    expect(row('pay')).toMatchObject({ views: 0, enters: 1, conversions: 1, sessions: 1 });
    expect(row('thanks')).toMatchObject({ views: 0, enters: 0, conversions: 0, sessions: 0 });
    const production = await ok(
      harness,
      'GET',
      `/funnels/${funnel.id}/report?environment=production`,
      shop.merchant.token,
    );
    expect(production.steps.find((step: any) => step.key === 'land').views).toBe(1);

    const unknownStep = await call<any>(harness, 'POST', `${api}/funnel-tracking/step`, {
      token: shop.merchant.token,
      body: { storeId: shop.storeId, eventType: 'view', stepId: 'step_unknown' },
    });
    expect(unknownStep.status).toBe(404);
    const badType = await call<any>(harness, 'POST', `${api}/funnel-tracking/step`, {
      token: shop.merchant.token,
      body: { storeId: shop.storeId, eventType: 'click', stepId: stepId('land') },
    });
    expect(badType.status).toBe(400);
  });
});
