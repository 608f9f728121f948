import {
  planRoute,
  requiredCapabilities,
  shouldCascade,
  type RouteInput,
  type RoutingFlow,
  type RoutingProcessor,
} from '../../src/domain/routing';

const processors: RoutingProcessor[] = [
  { id: 'A', enabled: true, supportedCurrencies: ['EUR', 'USD'], capabilities: ['externalThreeDs'] },
  { id: 'B', enabled: true, supportedCurrencies: ['EUR'] },
  { id: 'C', enabled: true, supportedCurrencies: ['EUR', 'USD'], capabilities: ['externalThreeDs'] },
  { id: 'D', enabled: false, supportedCurrencies: ['EUR'] },
  { id: 'E', enabled: true, supportedCurrencies: ['JPY'] },
];

const cascade: RoutingFlow = {
  strategy: 'cascade',
  stickyProcessorEnabled: false,
  pickProcessorStrategy: 'weighted',
  fallbackMode: true,
  maxFallbackRetries: 2,
  processorConfigs: [
    { processorId: 'A', weight: 70, disabled: false, nonStickable: false },
    { processorId: 'B', weight: 30, disabled: false, nonStickable: false },
  ],
  fallbackProcessorConfigs: [
    { processorId: 'C', orderIndex: 2 },
    { processorId: 'B', orderIndex: 0 },
    { processorId: 'A', orderIndex: 1 },
  ],
};

const route = (flow: Partial<RoutingFlow>, input: Partial<RouteInput> = {}) =>
  planRoute({ flow: { ...cascade, ...flow }, processors, currency: 'EUR', random: 0, ...input });

describe('planRoute', () => {
  it.each<[string, Partial<RoutingFlow>, Partial<RouteInput>, string[], string]>([
    ["weighted pick at the bottom of A's share", {}, { random: 0 }, ['A', 'B', 'C'], 'weighted'],
    ['weighted pick just below the A/B boundary', {}, { random: 0.6999 }, ['A', 'B', 'C'], 'weighted'],
    ['weighted pick at the A/B boundary', {}, { random: 0.7 }, ['B', 'A', 'C'], 'weighted'],
    ['weighted pick at the top end', {}, { random: 0.9999 }, ['B', 'A', 'C'], 'weighted'],
    ['random outside [0,1) is clamped', {}, { random: 5 }, ['B', 'A', 'C'], 'weighted'],
    ['NaN random picks the first share', {}, { random: Number.NaN }, ['A', 'B', 'C'], 'weighted'],
    ['maxFallbackRetries caps the order', { maxFallbackRetries: 1 }, {}, ['A', 'B'], 'weighted'],
    ['maxFallbackRetries 0 is the first pick only', { maxFallbackRetries: 0 }, {}, ['A'], 'weighted'],
    ['single strategy never falls back', { strategy: 'single' }, {}, ['A'], 'weighted'],
    ['fallbackMode off never falls back', { fallbackMode: false }, {}, ['A'], 'weighted'],
    [
      'a processor disabled in the flow is never tried',
      {
        processorConfigs: [
          { processorId: 'A', weight: 1, disabled: true, nonStickable: false },
          { processorId: 'B', weight: 1, disabled: false, nonStickable: false },
        ],
      },
      {},
      ['B', 'C'],
      'weighted',
    ],
    [
      'a disabled processor is never tried',
      {
        processorConfigs: [
          { processorId: 'D', weight: 100, disabled: false, nonStickable: false },
          { processorId: 'A', weight: 1, disabled: false, nonStickable: false },
        ],
        fallbackProcessorConfigs: [
          { processorId: 'D', orderIndex: 0 },
          { processorId: 'C', orderIndex: 1 },
        ],
      },
      {},
      ['A', 'C'],
      'weighted',
    ],
    ['currency filter drops B and E', {}, { currency: 'USD', random: 0.9 }, ['A', 'C'], 'weighted'],
    ['currency is compared case-insensitively', {}, { currency: 'usd' }, ['A', 'C'], 'weighted'],
    ['no eligible processor gives an empty order', {}, { currency: 'GBP' }, [], 'weighted'],
    [
      'required capability filters first pick and fallbacks',
      {},
      { requiredCapabilities: ['externalThreeDs'], random: 0.9 },
      ['A', 'C'],
      'weighted',
    ],
    [
      'ordered strategy takes list order',
      { pickProcessorStrategy: 'ordered' },
      { random: 0.99 },
      ['A', 'B', 'C'],
      'ordered',
    ],
    [
      'all weights 0 falls back to list order',
      {
        processorConfigs: [
          { processorId: 'B', weight: 0, disabled: false, nonStickable: false },
          { processorId: 'A', weight: 0, disabled: false, nonStickable: false },
        ],
      },
      {},
      ['B', 'A', 'C'],
      'ordered',
    ],
    [
      'weight 0 is never the weighted first pick',
      {
        processorConfigs: [
          { processorId: 'A', weight: 0, disabled: false, nonStickable: false },
          { processorId: 'B', weight: 5, disabled: false, nonStickable: false },
        ],
      },
      { random: 0 },
      ['B', 'A', 'C'],
      'weighted',
    ],
    [
      'no eligible primary: the first eligible fallback leads',
      { processorConfigs: [{ processorId: 'D', weight: 1, disabled: false, nonStickable: false }] },
      {},
      ['B', 'A', 'C'],
      'ordered',
    ],
    [
      'equal orderIndex keeps list order',
      {
        fallbackProcessorConfigs: [
          { processorId: 'C', orderIndex: 0 },
          { processorId: 'B', orderIndex: 0 },
        ],
      },
      {},
      ['A', 'C', 'B'],
      'weighted',
    ],
    [
      'unknown processor ids are skipped',
      {
        fallbackProcessorConfigs: [
          { processorId: 'ghost', orderIndex: 0 },
          { processorId: 'C', orderIndex: 1 },
        ],
      },
      {},
      ['A', 'C'],
      'weighted',
    ],
    [
      'sticky processor goes first',
      { stickyProcessorEnabled: true },
      { stickyProcessorId: 'C' },
      ['C', 'B', 'A'],
      'sticky',
    ],
    ['sticky ignored when the flow is not sticky', {}, { stickyProcessorId: 'C' }, ['A', 'B', 'C'], 'weighted'],
    [
      'nonStickable processor is not stuck to',
      {
        stickyProcessorEnabled: true,
        processorConfigs: [
          { processorId: 'A', weight: 1, disabled: false, nonStickable: false },
          { processorId: 'B', weight: 0, disabled: false, nonStickable: true },
        ],
      },
      { stickyProcessorId: 'B' },
      ['A', 'B', 'C'],
      'weighted',
    ],
    [
      'ineligible sticky processor is not stuck to',
      { stickyProcessorEnabled: true },
      { stickyProcessorId: 'D' },
      ['A', 'B', 'C'],
      'weighted',
    ],
    [
      'sticky processor lacking the currency is not stuck to',
      { stickyProcessorEnabled: true },
      { stickyProcessorId: 'B', currency: 'USD' },
      ['A', 'C'],
      'weighted',
    ],
    [
      'null sticky id is a normal pick',
      { stickyProcessorEnabled: true },
      { stickyProcessorId: null },
      ['A', 'B', 'C'],
      'weighted',
    ],
  ])('%s', (_name, flow, input, order, reason) => {
    expect(route(flow, input)).toEqual({ order, reason });
  });

  it('spreads first picks by weight over evenly spaced random numbers', () => {
    const counts: Record<string, number> = {};
    for (let i = 0; i < 1000; i++) {
      const [first] = route({}, { random: i / 1000 }).order;
      counts[first!] = (counts[first!] ?? 0) + 1;
    }
    expect(counts).toEqual({ A: 700, B: 300 });
  });
});

describe('shouldCascade', () => {
  it.each<[string, Partial<RoutingFlow>, boolean]>([
    ['hard_decline', {}, false],
    ['soft_decline', {}, true],
    ['technical', {}, true],
    ['soft_decline', { strategy: 'single' }, false],
    ['technical', { fallbackMode: false }, false],
    ['hard_decline', { strategy: 'cascade', fallbackMode: true }, false],
  ])('%s with %j → %s', (category, flow, expected) => {
    expect(shouldCascade(category as 'hard_decline', { ...cascade, ...flow })).toBe(expected);
  });
});

describe('requiredCapabilities', () => {
  it('asks a purchase for automatic capture and an auth for manual capture', () => {
    expect(requiredCapabilities('purchase')).toEqual(['capture:automatic']);
    expect(requiredCapabilities('auth')).toEqual(['capture:manual']);
  });

  it("drops processors lacking the intent's capture mode from the first pick and the fallbacks", () => {
    const withCapture = processors.map((p) => ({
      ...p,
      capabilities: p.id === 'A' ? ['capture:automatic'] : ['capture:automatic', 'capture:manual'],
    }));
    expect(route({}, { processors: withCapture, requiredCapabilities: requiredCapabilities('auth') }).order).toEqual([
      'B',
      'C',
    ]);
    expect(
      route({}, { processors: withCapture, requiredCapabilities: requiredCapabilities('purchase') }).order,
    ).toEqual(['A', 'B', 'C']);
  });
});
