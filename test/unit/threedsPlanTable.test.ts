import { planThreeDs, type PlanDecision, type PlanFacts } from '../../src/threeds/paymentPlan';

/** Every branch of the payment's 3DS decision (src/threeds/paymentPlan.ts), one row each. */
const forwards = { enable3DS: true, capabilities: ['externalThreeDs'] };
const hosted = { enable3DS: true, capabilities: ['hostedThreeDs'] };
const threeDsOff = { enable3DS: false, capabilities: ['externalThreeDs'] };

type Session = Extract<PlanFacts['session'], { found: true }>;
const session = (overrides: Partial<Session> = {}): Session => ({
  found: true,
  type: 'customer',
  status: 'authenticated',
  transStatus: 'Y',
  failureReason: null,
  ...overrides,
});
const facts = (overrides: Partial<PlanFacts> = {}): PlanFacts => ({
  initiatedBy: 'customer',
  flowThreeDsEnabled: true,
  processors: [forwards],
  session: null,
  ...overrides,
});

type Row = [
  name: string,
  given: PlanFacts,
  expected: PlanDecision | Partial<Extract<PlanDecision, { kind: 'declined' }>>,
];

const rows: Row[] = [
  // No session: the engine authenticates only when the flow and a forwarding processor ask.
  [
    'no session, flow and a forwarding processor ask: browser authentication',
    facts(),
    { kind: 'authenticate', deviceChannel: 'browser' },
  ],
  [
    'no session, merchant-initiated: 3RI authentication',
    facts({ initiatedBy: 'merchant' }),
    { kind: 'authenticate', deviceChannel: '3ri' },
  ],
  ['no session, flow has threeDsEnabled off', facts({ flowThreeDsEnabled: false }), { kind: 'skip' }],
  ['no session, processor has enable3DS off', facts({ processors: [threeDsOff] }), { kind: 'skip' }],
  ['no session, only a hosted-3DS processor asks (it runs its own)', facts({ processors: [hosted] }), { kind: 'skip' }],
  [
    'no session, a hosted and a forwarding processor ask',
    facts({ processors: [hosted, forwards] }),
    { kind: 'authenticate', deviceChannel: 'browser' },
  ],
  ['no session, no processors', facts({ processors: [] }), { kind: 'skip' }],

  // A session that cannot be used declines before any processor.
  [
    'session not found in this account and mode',
    facts({ session: { found: false } }),
    { kind: 'declined', code: 'threeds_session_not_found' },
  ],
  [
    'merchant session on a customer-initiated payment',
    facts({ session: session({ type: 'merchant' }) }),
    { kind: 'declined', code: 'threeds_session_type_mismatch' },
  ],
  [
    'customer session on a merchant-initiated payment',
    facts({ initiatedBy: 'merchant', session: session() }),
    { kind: 'declined', code: 'threeds_session_type_mismatch' },
  ],
  [
    'failed session (transStatus N)',
    facts({ session: session({ status: 'failed', transStatus: 'N', failureReason: 'transStatus N' }) }),
    {
      kind: 'declined',
      code: 'threeds_authentication_failed',
      message: '3-D Secure authentication failed (transStatus N)',
    },
  ],
  [
    'failed session without a transStatus',
    facts({ session: session({ status: 'failed', transStatus: null, failureReason: 'transStatus R' }) }),
    {
      kind: 'declined',
      code: 'threeds_authentication_failed',
      message: '3-D Secure authentication failed (transStatus unknown)',
    },
  ],
  [
    'session whose challenge timed out',
    facts({ session: session({ status: 'failed', transStatus: 'C', failureReason: 'challenge_timeout' }) }),
    {
      kind: 'declined',
      code: 'threeds_authentication_failed',
      message: '3-D Secure authentication failed (the challenge was never completed)',
    },
  ],
  [
    'pending session',
    facts({ session: session({ status: 'pending', transStatus: null }) }),
    {
      kind: 'declined',
      code: 'threeds_session_not_authenticated',
      message: 'The 3DS session is pending, not authenticated',
    },
  ],
  [
    'session still in its challenge',
    facts({ session: session({ status: 'challenge_required', transStatus: 'C' }) }),
    {
      kind: 'declined',
      code: 'threeds_session_not_authenticated',
      message: 'The 3DS session is challenge_required, not authenticated',
    },
  ],
  [
    'a mismatch is reported before the failed status',
    facts({ session: session({ type: 'merchant', status: 'failed' }) }),
    { kind: 'declined', code: 'threeds_session_type_mismatch' },
  ],

  // An authenticated session is used; its values go only where the flow and a processor take them.
  [
    'authenticated customer session, forwarding processor',
    facts({ session: session() }),
    { kind: 'use', forward: true },
  ],
  [
    'authenticated merchant session, merchant-initiated',
    facts({ initiatedBy: 'merchant', session: session({ type: 'merchant' }) }),
    { kind: 'use', forward: true },
  ],
  [
    'authenticated session, flow has 3DS off: used, not forwarded',
    facts({ flowThreeDsEnabled: false, session: session() }),
    { kind: 'use', forward: false },
  ],
  [
    'authenticated session, processor has enable3DS off',
    facts({ processors: [threeDsOff], session: session() }),
    { kind: 'use', forward: false },
  ],
  [
    'authenticated session, only a hosted-3DS processor',
    facts({ processors: [hosted], session: session() }),
    { kind: 'use', forward: false },
  ],
  [
    'authenticated session (attempted, A)',
    facts({ session: session({ transStatus: 'A' }) }),
    { kind: 'use', forward: true },
  ],
];

describe('planThreeDs: every branch', () => {
  it.each(rows)('%s', (...row: Row) => {
    const [, given, expected] = row;
    const decision = planThreeDs(given);
    if (expected.kind === 'declined') {
      expect(decision).toMatchObject(expected);
      expect((decision as { message: string }).message.length).toBeGreaterThan(0);
    } else {
      expect(decision).toEqual(expected);
    }
  });
});
