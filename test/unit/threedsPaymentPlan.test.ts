import { planThreeDs, type PlanFacts } from '../../src/threeds/paymentPlan';

const external = { enable3DS: true, capabilities: ['externalThreeDs'] };
const hosted = { enable3DS: true, capabilities: [] };
const off = { enable3DS: false, capabilities: ['externalThreeDs'] };

function facts(overrides: Partial<PlanFacts>): PlanFacts {
  return { initiatedBy: 'customer', flowThreeDsEnabled: true, processors: [external], session: null, ...overrides };
}

describe('planThreeDs without a session', () => {
  it.each([
    ['customer, flow and processor ask', facts({}), { kind: 'authenticate', deviceChannel: 'browser' }],
    [
      'merchant-initiated renewal, flow and processor ask: 3RI',
      facts({ initiatedBy: 'merchant' }),
      { kind: 'authenticate', deviceChannel: '3ri' },
    ],
    ['merchant, flow has 3DS off', facts({ initiatedBy: 'merchant', flowThreeDsEnabled: false }), { kind: 'skip' }],
    ['merchant, processor has enable3DS off', facts({ initiatedBy: 'merchant', processors: [off] }), { kind: 'skip' }],
    [
      'merchant, only a hosted-3DS processor (runs its own)',
      facts({ initiatedBy: 'merchant', processors: [hosted] }),
      { kind: 'skip' },
    ],
    ['customer, only a hosted-3DS processor', facts({ processors: [hosted] }), { kind: 'skip' }],
  ])('%s', (_name, given, expected) => {
    expect(planThreeDs(given)).toEqual(expected);
  });
});

describe('planThreeDs with a session', () => {
  const session = {
    found: true as const,
    type: 'merchant',
    status: 'authenticated',
    transStatus: 'Y',
    failureReason: null,
  };
  it('uses a merchant session with a merchant-initiated payment, refuses it with a customer one', () => {
    expect(planThreeDs(facts({ initiatedBy: 'merchant', session }))).toEqual({ kind: 'use', forward: true });
    expect(planThreeDs(facts({ initiatedBy: 'customer', session }))).toMatchObject({
      kind: 'declined',
      code: 'threeds_session_type_mismatch',
    });
  });
});
