import type { DeclineCategory } from '../../../src/processors/types';
import {
  cascades,
  planRoute,
  shouldCascade,
  type RouteInput,
  type RoutingFlow,
  type RoutingProcessor,
} from '../../../src/domain/routing';
import { fc } from './fcConfig';

const ids = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
const capabilityNames = ['capture:manual', 'capture:automatic', 'externalThreeDs'];

/** Mostly `usual`: most generated processors are eligible, so long cascades are common. */
function often<T>(usual: T, rare: T): fc.Arbitrary<T> {
  return fc.oneof({ arbitrary: fc.constant(usual), weight: 3 }, { arbitrary: fc.constant(rare), weight: 1 });
}

const processor = (id: string): fc.Arbitrary<RoutingProcessor> =>
  fc.record({
    id: fc.constant(id),
    enabled: often(true, false),
    supportedCurrencies: fc.oneof(fc.constant<string[]>(['EUR', 'usd', 'JPY']), fc.subarray(['EUR', 'usd', 'JPY'])),
    capabilities: fc.oneof(fc.constant(capabilityNames), fc.subarray(capabilityNames)),
  });

/** Some ids the flow names are not known processors at all. */
const processors = fc.subarray(ids).chain((known) => fc.tuple(...known.map(processor)));

const flow: fc.Arbitrary<RoutingFlow> = fc.record({
  strategy: often('cascade', 'single'),
  stickyProcessorEnabled: fc.boolean(),
  pickProcessorStrategy: fc.constantFrom('weighted', 'ordered'),
  fallbackMode: often(true, false),
  maxFallbackRetries: fc.oneof(
    fc.integer({ min: 0, max: 3 }),
    fc.integer({ min: -2, max: 7 }),
    fc.double({ min: -1, max: 7, noNaN: true }),
  ),
  processorConfigs: fc.uniqueArray(
    fc.record({
      processorId: fc.constantFrom(...ids),
      weight: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 100 })),
      disabled: often(false, true),
      nonStickable: fc.boolean(),
    }),
    { selector: (c) => c.processorId, maxLength: 6 },
  ),
  fallbackProcessorConfigs: fc.array(
    fc.record({ processorId: fc.constantFrom(...ids), orderIndex: fc.integer({ min: 0, max: 4 }) }),
    { maxLength: 10 },
  ),
});

const routeInput: fc.Arbitrary<RouteInput> = fc.record({
  flow,
  processors,
  currency: fc.oneof(fc.constant('EUR'), fc.constantFrom('eur', 'USD', 'JPY', 'GBP')),
  stickyProcessorId: fc.option(fc.constantFrom(...ids, 'unknown')),
  random: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  requiredCapabilities: fc.oneof(fc.constant<string[]>([]), fc.subarray(capabilityNames, { maxLength: 2 })),
});

/** The eligibility rule written out independently of the engine's. */
function referenceEligible(input: RouteInput, id: string): boolean {
  const p = input.processors.find((candidate) => candidate.id === id);
  if (p === undefined || !p.enabled) return false;
  if (input.flow.processorConfigs.some((c) => c.processorId === id && c.disabled)) return false;
  if (!p.supportedCurrencies.map((c) => c.toLowerCase()).includes(input.currency.toLowerCase())) return false;
  return (input.requiredCapabilities ?? []).every((needed) => (p.capabilities ?? []).includes(needed));
}

function budgetOf(flow: RoutingFlow): number {
  return cascades(flow) ? 1 + Math.max(0, Math.trunc(flow.maxFallbackRetries)) : 1;
}

/** mulberry32: a small seeded generator, so the statistical law replays from fast-check's seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A weighted flow over always-eligible processors with the given weights. */
function weightedInput(weights: number[], random: number): RouteInput {
  return {
    flow: {
      strategy: 'single',
      stickyProcessorEnabled: false,
      pickProcessorStrategy: 'weighted',
      fallbackMode: false,
      maxFallbackRetries: 0,
      processorConfigs: weights.map((weight, i) => ({
        processorId: `w${i}`,
        weight,
        disabled: false,
        nonStickable: false,
      })),
      fallbackProcessorConfigs: [],
    },
    processors: weights.map((_, i) => ({ id: `w${i}`, enabled: true, supportedCurrencies: ['EUR'] })),
    currency: 'EUR',
    random,
  };
}

function countPicks(weights: number[], randoms: number[]): number[] {
  const counts = weights.map(() => 0);
  const input = weightedInput(weights, 0);
  for (const random of randoms) {
    input.random = random;
    const [first] = planRoute(input).order;
    counts[Number(first!.slice(1))]! += 1;
  }
  return counts;
}

const weights = fc
  .array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 5 })
  .filter((ws) => ws.some((w) => w > 0));

describe('routing laws', () => {
  it('never admits an ineligible processor, not even as a fallback', () => {
    fc.assert(
      fc.property(routeInput, (input) => {
        for (const id of planRoute(input).order) expect(referenceEligible(input, id)).toBe(true);
      }),
    );
  });

  it('never tries a processor twice, and tries at most 1 + maxFallbackRetries (1 without cascading)', () => {
    fc.assert(
      fc.property(routeInput, (input) => {
        const { order } = planRoute(input);
        expect(new Set(order).size).toBe(order.length);
        expect(order.length).toBeLessThanOrEqual(budgetOf(input.flow));
      }),
    );
  });

  it('cascades through fallbacks by orderIndex, leaving out no eligible one while the budget lasts', () => {
    fc.assert(
      fc.property(routeInput, (input) => {
        const { order } = planRoute(input);
        if (order.length === 0 || !cascades(input.flow)) return;
        const expected: string[] = [];
        const sorted = input.flow.fallbackProcessorConfigs
          .map((c, position) => ({ ...c, position }))
          .sort((a, b) => a.orderIndex - b.orderIndex || a.position - b.position);
        for (const c of sorted) {
          const listed = c.processorId === order[0] || expected.includes(c.processorId);
          if (!listed && referenceEligible(input, c.processorId)) expected.push(c.processorId);
        }
        expect(order.slice(1)).toEqual(expected.slice(0, budgetOf(input.flow) - 1));
      }),
    );
  });

  it('finds a processor whenever one is eligible, as a primary, a fallback or the sticky one', () => {
    fc.assert(
      fc.property(routeInput, (input) => {
        const named = [...input.flow.processorConfigs, ...input.flow.fallbackProcessorConfigs].map(
          (c) => c.processorId,
        );
        // The sticky processor need not be one the flow names (it is taken as it is, see below).
        if (input.flow.stickyProcessorEnabled && input.stickyProcessorId) named.push(input.stickyProcessorId);
        expect(planRoute(input).order.length > 0).toBe(named.some((id) => referenceEligible(input, id)));
      }),
    );
  });

  it('sticky routing is stable: an eligible, stickable sticky processor comes first whatever the randomness', () => {
    fc.assert(
      fc.property(routeInput, fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (input, otherRandom) => {
        const sticky = input.stickyProcessorId;
        const applies =
          input.flow.stickyProcessorEnabled &&
          !!sticky &&
          referenceEligible(input, sticky) &&
          !input.flow.processorConfigs.some((c) => c.processorId === sticky && c.nonStickable);
        const plan = planRoute(input);
        if (!applies) {
          expect(plan.reason).not.toBe('sticky');
          return;
        }
        expect(plan.order[0]).toBe(sticky);
        expect(plan.reason).toBe('sticky');
        expect(planRoute({ ...input, random: otherRandom })).toEqual(plan);
      }),
    );
  });

  it('a weighted pick never chooses a weight of 0 while some weight is positive', () => {
    fc.assert(
      fc.property(routeInput, (input) => {
        const plan = planRoute(input);
        if (plan.reason !== 'weighted' || plan.order.length === 0) return;
        const config = input.flow.processorConfigs.find((c) => c.processorId === plan.order[0]);
        expect(config?.weight).toBeGreaterThan(0);
      }),
    );
  });

  it('weights converge to their shares (20,000 seeded draws, within 2 points)', () => {
    fc.assert(
      fc.property(weights, fc.integer(), (ws, seed) => {
        const next = seeded(seed);
        const draws = 20_000;
        const counts = countPicks(ws, Array.from({ length: draws }, next));
        const total = ws.reduce((sum, w) => sum + w, 0);
        ws.forEach((w, i) => expect(Math.abs(counts[i]! / draws - w / total)).toBeLessThanOrEqual(0.02));
      }),
      { numRuns: 10 },
    );
  });

  it('evenly spread randomness splits exactly by weight (within one pick each)', () => {
    fc.assert(
      fc.property(weights, fc.integer({ min: 1, max: 2000 }), (ws, draws) => {
        const counts = countPicks(
          ws,
          Array.from({ length: draws }, (_, i) => (i + 0.5) / draws),
        );
        const total = ws.reduce((sum, w) => sum + w, 0);
        ws.forEach((w, i) => expect(Math.abs(counts[i]! - (draws * w) / total)).toBeLessThanOrEqual(1));
      }),
      { numRuns: 50 },
    );
  });

  it('out-of-range randomness still picks a weighted processor (clamped, never off the end)', () => {
    const odd = fc.constantFrom(-1, 1, 2, NaN, Infinity, -Infinity, 1 - Number.EPSILON / 2);
    fc.assert(
      fc.property(weights, odd, (ws, random) => {
        const [first] = planRoute(weightedInput(ws, random)).order;
        expect(ws[Number(first!.slice(1))]).toBeGreaterThan(0);
      }),
    );
  });

  it('only soft declines and technical failures cascade, and only in a cascading flow', () => {
    const category = fc.constantFrom<DeclineCategory>('hard_decline', 'soft_decline', 'technical');
    fc.assert(
      fc.property(category, flow, (c, f) => {
        expect(shouldCascade(c, f)).toBe(c !== 'hard_decline' && f.strategy === 'cascade' && f.fallbackMode);
      }),
    );
  });
});
