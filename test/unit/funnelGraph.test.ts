import { entryStepOf, validateFunnelGraph, type FunnelStep } from '../../src/domain/funnelGraph';

const step = (key: string, type: FunnelStep['type'], edges: Partial<FunnelStep> = {}): FunnelStep => ({
  id: `step_${key}`,
  key,
  type,
  ...edges,
});

const full = (): FunnelStep[] => [
  step('land', 'landing', { next: 'pay' }),
  step('pay', 'checkout', { next: 'up' }),
  step('up', 'upsell', { priceId: 'price_a', onAccept: 'thanks', onDecline: 'down' }),
  step('down', 'downsell', { priceId: 'price_b', onAccept: 'thanks', onDecline: 'thanks' }),
  step('thanks', 'thankyou'),
];

const messages = (steps: FunnelStep[]) => validateFunnelGraph(steps).map((issue) => `${issue.path}: ${issue.message}`);

describe('validateFunnelGraph', () => {
  it('accepts landing → checkout → upsell → downsell → thankyou', () => {
    expect(validateFunnelGraph(full())).toEqual([]);
    expect(entryStepOf(full().map((s) => ({ ...s, next: s.next && `step_${s.next}` }))).key).toBe('land');
  });

  it('checks a stored graph by ids', () => {
    const byId = full().map((s) => ({
      ...s,
      next: s.next ? `step_${s.next}` : null,
      onAccept: s.onAccept ? `step_${s.onAccept}` : null,
      onDecline: s.onDecline ? `step_${s.onDecline}` : null,
    }));
    expect(validateFunnelGraph(byId, 'id')).toEqual([]);
  });

  it('refuses an edge to a step that does not exist', () => {
    const steps = full();
    steps[2]!.onAccept = 'nowhere';
    expect(messages(steps)).toEqual(['steps.2.onAccept: onAccept names no step of this funnel: nowhere']);
  });

  it('refuses two entries', () => {
    const steps = [...full(), step('other', 'landing', { next: 'pay' })];
    expect(messages(steps)).toEqual([
      'steps: a funnel needs exactly one entry step (no edge points at it); found land, other',
    ]);
  });

  it('refuses a graph where every step is pointed at (no entry)', () => {
    const steps = [
      step('a', 'landing', { next: 'up' }),
      step('up', 'upsell', { priceId: 'price_a', onAccept: 't', onDecline: 'a' }),
      step('t', 'thankyou'),
    ];
    expect(messages(steps)).toEqual([
      'steps: a funnel needs exactly one entry step (no edge points at it); found none',
    ]);
  });

  it('refuses a cycle reachable from the entry', () => {
    const steps = [
      step('land', 'landing', { next: 'up' }),
      step('up', 'upsell', { priceId: 'price_a', onAccept: 'thanks', onDecline: 'down' }),
      step('down', 'downsell', { priceId: 'price_b', onAccept: 'thanks', onDecline: 'up' }),
      step('thanks', 'thankyou'),
    ];
    expect(messages(steps)).toEqual(['steps: steps form a cycle through up']);
  });

  it('refuses a step the entry cannot reach (an isolated loop)', () => {
    const steps = [
      ...full(),
      step('x', 'upsell', { priceId: 'price_c', onAccept: 'y', onDecline: 'y' }),
      step('y', 'downsell', { priceId: 'price_c', onAccept: 'x', onDecline: 'x' }),
    ];
    expect(messages(steps)).toEqual([
      'steps.5: step x cannot be reached from the entry',
      'steps.6: step y cannot be reached from the entry',
    ]);
  });

  it('refuses missing and extra edges, a missing price, duplicate keys, unknown types and self-loops', () => {
    const steps: FunnelStep[] = [
      step('land', 'landing'),
      step('land', 'checkout', { next: 'thanks', onAccept: 'thanks' }),
      step('up', 'upsell', { onAccept: 'up', onDecline: 'thanks' }),
      step('thanks', 'thankyou', { priceId: 'price_a' }),
      { ...step('odd', 'landing'), type: 'popup' as FunnelStep['type'] },
    ];
    expect(messages(steps)).toEqual([
      'steps.1.key: duplicate step land',
      'steps.0.next: a landing step needs next',
      'steps.1.onAccept: a checkout step has no onAccept',
      'steps.2.onAccept: onAccept points at the step itself',
      'steps.2.priceId: a upsell step needs the priceId it offers',
      'steps.3.priceId: a thankyou step offers no price',
      'steps.4.type: unknown step type popup',
    ]);
  });

  it('refuses an empty funnel and one without a thankyou', () => {
    expect(messages([])).toEqual(['steps: a funnel needs at least one step']);
    expect(messages([step('land', 'landing', { next: 'pay' }), step('pay', 'checkout', { next: 'land' })])).toContain(
      'steps: a funnel needs a thankyou step',
    );
  });
});
