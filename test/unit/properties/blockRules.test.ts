import {
  findBlockingRule,
  normalizeBlockRuleValue,
  ruleMatches,
  type BlockRuleInput,
  type BlockRuleType,
  type PaymentSignals,
} from '../../../src/domain/blockRules';
import { fc } from './fcConfig';

/** An address as the reference model sees it: a family and its bits as one integer. */
interface Address {
  family: 4 | 6;
  bits: bigint;
}

const ipv4 = fc
  .tuple(fc.constantFrom(0x0a00n, 0xc0a8n, 0x0a01n), fc.bigInt({ min: 0n, max: 0xffffn }))
  .map(([high, low]): Address => ({ family: 4, bits: (high << 16n) | low }));
const ipv6 = fc
  .tuple(fc.constantFrom(0x2001n, 0x2a02n), fc.bigInt({ min: 0n, max: (1n << 112n) - 1n }))
  .map(([high, low]): Address => ({ family: 6, bits: (high << 112n) | low }));
const address = fc.oneof(ipv4, ipv6);

function text(a: Address, { mapped = false, upper = false } = {}): string {
  if (a.family === 4) {
    const dotted = [24n, 16n, 8n, 0n].map((shift) => String((a.bits >> shift) & 0xffn)).join('.');
    return mapped ? `::ffff:${dotted}` : dotted;
  }
  const hextets = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((shift) => ((a.bits >> shift) & 0xffffn).toString(16));
  const joined = hextets.join(':');
  return upper ? joined.toUpperCase() : joined;
}

const width = (a: Address) => (a.family === 4 ? 32 : 128);

/**
 * CIDR membership in exact integers: the first `prefix` bits agree. An IPv4 address counts as
 * `::ffff:a.b.c.d` (as documented), so an IPv6 subnet that covers ::ffff:0:0/96 (`::/0`) holds it.
 */
function inSubnet(network: Address, prefix: number, candidate: Address): boolean {
  const bits = network.family === 6 && candidate.family === 4 ? (0xffffn << 32n) | candidate.bits : candidate.bits;
  if (network.family === 4 && candidate.family === 6) return false;
  const shift = BigInt(width(network) - prefix);
  return network.bits >> shift === bits >> shift;
}

/** An address in the network's neighbourhood: same leading `keep` bits, the rest random. */
const near = (a: Address) =>
  fc
    .tuple(fc.integer({ min: 0, max: width(a) }), fc.bigInt({ min: 0n, max: (1n << BigInt(width(a))) - 1n }))
    .map(([keep, noise]): Address => {
      const free = BigInt(width(a) - keep);
      const mask = (1n << free) - 1n;
      return { family: a.family, bits: (a.bits & ~mask) | (noise & mask) };
    });

type Spec =
  | { type: 'ip'; network: Address; prefix: number | null; mapped: boolean }
  | { type: 'email'; pattern: string }
  | { type: 'card_bin'; pattern: string }
  | { type: 'country'; pattern: string };

const ipSpec = address.chain((network) =>
  fc.record({
    type: fc.constant('ip' as const),
    network: fc.constant(network),
    prefix: fc.option(fc.integer({ min: 0, max: width(network) })),
    mapped: network.family === 4 ? fc.boolean() : fc.constant(false),
  }),
);
const spec: fc.Arbitrary<Spec> = fc.oneof(
  ipSpec,
  fc.record({
    type: fc.constant('email' as const),
    pattern: fc.constantFrom('a@example.com', 'A@Example.com', '@example.com', '*@example.com', '@other.org'),
  }),
  fc.record({
    type: fc.constant('card_bin' as const),
    pattern: fc.constantFrom('411111', '41111111', '41111112', '555555', '4111', '41111a'),
  }),
  fc.record({ type: fc.constant('country' as const), pattern: fc.constantFrom('NG', 'ng', 'US', 'FR', 'N') }),
);

function patternOf(s: Spec): string {
  if (s.type !== 'ip') return s.pattern;
  const base = text(s.network, { mapped: s.mapped });
  return s.prefix === null ? base : `${base}/${s.prefix}`;
}

const aliases: Record<BlockRuleType, string[]> = {
  ip: ['ip', 'IP'],
  email: ['email'],
  card_bin: ['card_bin', 'bin', 'BIN'],
  country: ['country', 'Country'],
};

/** A rule value: the pattern itself when of the rule's type, else `<type>:<pattern>`. */
function valueOf(ruleType: BlockRuleType, s: Spec, alias: number): string {
  if (s.type === ruleType && alias % 2 === 0) return patternOf(s);
  const names = aliases[s.type];
  return `${names[alias % names.length]}:${patternOf(s)}`;
}

interface SignalSpec {
  ip: Address | null;
  ipMapped: boolean;
  email: string | null;
  cardBin: string | null;
  country: string | null;
}

const signalsNear = (specs: Spec[]): fc.Arbitrary<SignalSpec> => {
  const networks = specs.flatMap((s) => (s.type === 'ip' ? [s.network] : []));
  const ip = networks.length ? fc.oneof(address, fc.constantFrom(...networks).chain(near)) : address;
  return fc.record({
    ip: fc.option(ip),
    ipMapped: fc.boolean(),
    email: fc.option(
      fc.constantFrom('a@example.com', ' A@EXAMPLE.COM ', 'b@example.com', 'x@sub.example.com', 'a@other.org'),
    ),
    cardBin: fc.option(fc.constantFrom('4111111111111111', '4111-1111-1111', '41111122', '5555554444', '411', '')),
    country: fc.option(fc.constantFrom('NG', 'ng ', 'US', 'fr', '')),
  });
};

function signalsOf(s: SignalSpec): PaymentSignals {
  return {
    ip: s.ip && text(s.ip, { mapped: s.ip.family === 4 && s.ipMapped }),
    email: s.email,
    cardBin: s.cardBin,
    country: s.country,
  };
}

/** The reference: each condition written out plainly. */
function referenceHolds(c: Spec, s: SignalSpec): boolean {
  switch (c.type) {
    case 'ip':
      return s.ip !== null && inSubnet(c.network, c.prefix ?? width(c.network), s.ip);
    case 'email': {
      if (!s.email) return false;
      const address = s.email.trim().toLowerCase();
      const pattern = c.pattern.toLowerCase().replace(/^\*@/, '@');
      return pattern.startsWith('@') ? address.split('@').pop() === pattern.slice(1) : address === pattern;
    }
    case 'card_bin': {
      if (!/^\d{6,8}$/.test(c.pattern)) return false;
      const digits = [...(s.cardBin ?? '')].filter((ch) => ch >= '0' && ch <= '9').join('');
      return digits.slice(0, 8).slice(0, c.pattern.length) === c.pattern;
    }
    case 'country':
      return !!s.country && s.country.trim().toLowerCase() === c.pattern.toLowerCase();
  }
}

const ruleCase = fc
  .record({
    type: fc.constantFrom<BlockRuleType>('ip', 'email', 'card_bin', 'country'),
    specs: fc.array(spec, { maxLength: 4 }),
    aliases: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
    operator: fc.constantFrom<'OR' | 'AND'>('OR', 'AND'),
    enabled: fc.boolean(),
    expiresInMs: fc.option(fc.integer({ min: -1000, max: 1000 })),
  })
  .chain((r) => fc.record({ rule: fc.constant(r), signals: signalsNear(r.specs) }));

const now = new Date(Date.UTC(2026, 10, 28));

function ruleOf(
  r: {
    type: BlockRuleType;
    specs: Spec[];
    aliases: number[];
    operator: 'OR' | 'AND';
    enabled: boolean;
    expiresInMs: number | null;
  },
  id = 'r',
): BlockRuleInput {
  return {
    id,
    name: id,
    type: r.type,
    value: r.specs.map((s, i) => valueOf(r.type, s, r.aliases[i]!)),
    operator: r.operator,
    enabled: r.enabled,
    expiresAt: r.expiresInMs === null ? null : new Date(now.getTime() + r.expiresInMs),
  };
}

function referenceMatches(r: Parameters<typeof ruleOf>[0], s: SignalSpec): boolean {
  if (!r.enabled || (r.expiresInMs !== null && r.expiresInMs <= 0) || r.specs.length === 0) return false;
  const holds = r.specs.map((c) => referenceHolds(c, s));
  return r.operator === 'AND' ? holds.every(Boolean) : holds.some(Boolean);
}

describe('block-rule laws', () => {
  it('a rule matches iff its conditions hold (OR: any, AND: all), it is enabled and not expired (reference model)', () => {
    fc.assert(
      fc.property(ruleCase, ({ rule, signals }) => {
        expect(ruleMatches(ruleOf(rule), signalsOf(signals), now)).toBe(referenceMatches(rule, signals));
      }),
      { numRuns: 500 },
    );
  });

  it('a disabled rule, or one at or past its expiry, never matches; before its expiry it matches as if it had none', () => {
    fc.assert(
      fc.property(ruleCase, fc.nat(1000), ({ rule, signals }, k) => {
        const enabled = { ...rule, enabled: true };
        const matches = (r: typeof rule) => ruleMatches(ruleOf(r), signalsOf(signals), now);
        const unexpiring = matches({ ...enabled, expiresInMs: null });
        expect(matches({ ...enabled, expiresInMs: 0 })).toBe(false);
        expect(matches({ ...enabled, expiresInMs: -k })).toBe(false);
        expect(matches({ ...enabled, expiresInMs: k + 1 })).toBe(unexpiring);
        expect(matches({ ...rule, enabled: false })).toBe(false);
      }),
    );
  });

  it('the stored spelling of a value never changes what the rule matches', () => {
    fc.assert(
      fc.property(ruleCase, ({ rule, signals }) => {
        const raw = ruleOf(rule);
        const stored = { ...raw, value: raw.value.map((v) => normalizeBlockRuleValue(raw.type, v)) };
        expect(ruleMatches(stored, signalsOf(signals), now)).toBe(ruleMatches(raw, signalsOf(signals), now));
      }),
    );
  });

  it('AND matching implies OR matching over the same values; a single value means the same under both', () => {
    fc.assert(
      fc.property(ruleCase, ({ rule, signals }) => {
        const and = ruleMatches(ruleOf({ ...rule, operator: 'AND' }), signalsOf(signals), now);
        const or = ruleMatches(ruleOf({ ...rule, operator: 'OR' }), signalsOf(signals), now);
        if (and) expect(or).toBe(true);
        if (rule.specs.length === 1) expect(and).toBe(or);
      }),
    );
  });

  it('the blocking rule is the first matching one in the given order', () => {
    fc.assert(
      fc.property(fc.array(ruleCase, { minLength: 1, maxLength: 5 }), (cases) => {
        const signals = cases[0]!.signals;
        const rules = cases.map((c, i) => ruleOf(c.rule, `r${i}`));
        const first = cases.findIndex((c) => referenceMatches(c.rule, signals));
        expect(findBlockingRule(rules, signalsOf(signals), now)?.id).toBe(first === -1 ? undefined : `r${first}`);
      }),
    );
  });

  describe('IP CIDR laws', () => {
    const ipRule = (pattern: string): BlockRuleInput => ({
      id: 'ip',
      name: 'ip',
      type: 'ip',
      value: [pattern],
      operator: 'OR',
      enabled: true,
      expiresAt: null,
    });
    const blocks = (pattern: string, ip: string) => ruleMatches(ipRule(pattern), { ip }, now);

    it('an address is in every subnet of its own, and a full-length prefix holds only that address', () => {
      fc.assert(
        fc.property(address, address, fc.nat(), (a, b, p) => {
          const prefix = p % (width(a) + 1);
          expect(blocks(`${text(a)}/${prefix}`, text(a))).toBe(true);
          expect(blocks(`${text(a)}/${width(a)}`, text(b))).toBe(inSubnet(a, width(a), b));
          expect(blocks(text(a), text(b))).toBe(a.family === b.family && a.bits === b.bits);
        }),
      );
    });

    it('an IPv4 /0 holds every IPv4 address and no IPv6 one; an IPv6 /0 holds every address', () => {
      fc.assert(
        fc.property(address, address, (a, b) => {
          expect(blocks(`${text(a)}/0`, text(b))).toBe(a.family === 6 || b.family === 4);
        }),
      );
    });

    it('subnets nest: inside at a prefix means inside at every shorter prefix', () => {
      fc.assert(
        fc.property(
          address.chain((a) => fc.tuple(fc.constant(a), near(a), fc.nat(), fc.nat())),
          ([a, b, p, q]) => {
            const [shorter, longer] = [p % (width(a) + 1), q % (width(a) + 1)].sort((x, y) => x - y);
            if (blocks(`${text(a)}/${longer}`, text(b))) expect(blocks(`${text(a)}/${shorter}`, text(b))).toBe(true);
            expect(blocks(`${text(a)}/${longer}`, text(b))).toBe(inSubnet(a, longer!, b));
          },
        ),
      );
    });

    it('an IPv4-mapped IPv6 address counts as its IPv4 address, in a pattern and in a signal; case does not matter', () => {
      fc.assert(
        fc.property(
          ipv4.chain((a) => fc.tuple(fc.constant(a), near(a))),
          fc.integer({ min: 0, max: 32 }),
          ([a, b], prefix) => {
            const expected = inSubnet(a, prefix, b);
            expect(blocks(`${text(a)}/${prefix}`, text(b, { mapped: true }))).toBe(expected);
            expect(blocks(`${text(a, { mapped: true })}/${prefix}`, text(b))).toBe(expected);
          },
        ),
      );
      fc.assert(
        fc.property(
          ipv6.chain((a) => fc.tuple(fc.constant(a), near(a))),
          fc.integer({ min: 0, max: 128 }),
          ([a, b], prefix) => {
            expect(blocks(`${text(a, { upper: true })}/${prefix}`, text(b))).toBe(inSubnet(a, prefix, b));
          },
        ),
      );
    });

    it('a malformed pattern matches nothing', () => {
      const malformed = fc.oneof(
        address.map((a) => `${text(a)}/${width(a) + 1}`),
        address.map((a) => `${text(a)}/x`),
        address.map((a) => `${text(a)}/8/8`),
        fc.constantFrom('300.1.1.1', '1.2.3', 'example.com', ''),
      );
      fc.assert(
        fc.property(malformed, address, (pattern, b) => {
          expect(blocks(pattern, text(b))).toBe(false);
        }),
      );
    });
  });
});
