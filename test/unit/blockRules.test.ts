import {
  findBlockingRule,
  invalidPatternReason,
  ipRulesEvaluated,
  normalizeBlockRuleType,
  normalizeBlockRuleValue,
  parseCondition,
  type BlockRuleInput,
  type PaymentSignals,
} from '../../src/domain/blockRules';

const now = new Date('2026-11-22T12:00:00Z');
const rule = (overrides: Partial<BlockRuleInput>): BlockRuleInput => ({
  id: 'br_1',
  name: 'rule',
  type: 'country',
  value: ['NG'],
  operator: 'OR',
  enabled: true,
  expiresAt: null,
  ...overrides,
});
const blocks = (r: Partial<BlockRuleInput>, signals: PaymentSignals) =>
  findBlockingRule([rule(r)], signals, now) !== undefined;

describe('findBlockingRule', () => {
  it.each<[string, Partial<BlockRuleInput>, PaymentSignals, boolean]>([
    ['country match', {}, { country: 'NG' }, true],
    ['country lower-case signal', {}, { country: 'ng' }, true],
    ['country other', {}, { country: 'DE' }, false],
    ['country missing signal', {}, {}, false],
    [
      'email exact, case-insensitive',
      { type: 'email', value: ['Fraud@Example.com'] },
      { email: 'fraud@EXAMPLE.com' },
      true,
    ],
    ['email other address', { type: 'email', value: ['fraud@example.com'] }, { email: 'good@example.com' }, false],
    ['email @domain', { type: 'email', value: ['@spam.test'] }, { email: 'a@SPAM.test' }, true],
    ['email *@domain', { type: 'email', value: ['*@spam.test'] }, { email: 'b@spam.test' }, true],
    [
      'email domain is not a suffix of another domain',
      { type: 'email', value: ['@spam.test'] },
      { email: 'b@notspam.test' },
      false,
    ],
    [
      'email subdomain is a different domain',
      { type: 'email', value: ['@spam.test'] },
      { email: 'b@x.spam.test' },
      false,
    ],
    ['bin 6 digits prefix', { type: 'card_bin', value: ['400000'] }, { cardBin: '40000000' }, true],
    ['bin 8 digits prefix', { type: 'card_bin', value: ['42424242'] }, { cardBin: '4242424242424242' }, true],
    ['bin 8 digits not matching', { type: 'card_bin', value: ['42424243'] }, { cardBin: '4242424242424242' }, false],
    [
      'bin longer than the signal cannot match',
      { type: 'card_bin', value: ['42424242'] },
      { cardBin: '424242' },
      false,
    ],
    [
      'bin with spaces in the signal',
      { type: 'card_bin', value: ['424242'] },
      { cardBin: '4242 4242 4242 4242' },
      true,
    ],
    ['ip exact', { type: 'ip', value: ['203.0.113.7'] }, { ip: '203.0.113.7' }, true],
    ['ip exact other', { type: 'ip', value: ['203.0.113.7'] }, { ip: '203.0.113.8' }, false],
    ['ip CIDR inside', { type: 'ip', value: ['10.0.0.0/8'] }, { ip: '10.200.3.4' }, true],
    ['ip CIDR outside', { type: 'ip', value: ['10.0.0.0/8'] }, { ip: '11.0.0.1' }, false],
    ['ip IPv4-mapped IPv6 signal', { type: 'ip', value: ['10.0.0.0/8'] }, { ip: '::ffff:10.1.2.3' }, true],
    ['ip IPv6 CIDR', { type: 'ip', value: ['2001:db8::/32'] }, { ip: '2001:db8:1::5' }, true],
    ['ip IPv6 outside', { type: 'ip', value: ['2001:db8::/32'] }, { ip: '2001:db9::5' }, false],
    ['ip garbage signal', { type: 'ip', value: ['10.0.0.0/8'] }, { ip: 'not-an-ip' }, false],
    ['OR: any value', { value: ['DE', 'NG'] }, { country: 'NG' }, true],
    [
      'AND: same-type values all must hold',
      { type: 'ip', operator: 'AND', value: ['10.0.0.0/8', '10.1.0.0/16'] },
      { ip: '10.1.9.9' },
      true,
    ],
    [
      'AND: one fails',
      { type: 'ip', operator: 'AND', value: ['10.0.0.0/8', '10.1.0.0/16'] },
      { ip: '10.2.9.9' },
      false,
    ],
    [
      'AND across signals: both hold',
      { operator: 'AND', value: ['NG', 'bin:400000'] },
      { country: 'NG', cardBin: '40000012' },
      true,
    ],
    [
      'AND across signals: BIN differs',
      { operator: 'AND', value: ['NG', 'bin:400000'] },
      { country: 'NG', cardBin: '42424242' },
      false,
    ],
    [
      'AND across signals: signal missing',
      { operator: 'AND', value: ['NG', 'email:@spam.test'] },
      { country: 'NG' },
      false,
    ],
    ['OR across signals', { value: ['DE', 'email:@spam.test'] }, { country: 'NG', email: 'x@spam.test' }, true],
    ['disabled never matches', { enabled: false }, { country: 'NG' }, false],
    ['expired never matches', { expiresAt: new Date('2026-11-22T11:59:59Z') }, { country: 'NG' }, false],
    ['expiring exactly now no longer matches', { expiresAt: now }, { country: 'NG' }, false],
    ['not yet expired matches', { expiresAt: new Date('2026-11-22T12:00:01Z') }, { country: 'NG' }, true],
    ['empty value never matches', { value: [], operator: 'AND' }, { country: 'NG' }, false],
  ])('%s', (_name, r, signals, expected) => {
    expect(blocks(r, signals)).toBe(expected);
  });

  it('returns the first matching rule in order', () => {
    const rules = [
      rule({ id: 'br_a', enabled: false }),
      rule({ id: 'br_b', value: ['DE'] }),
      rule({ id: 'br_c' }),
      rule({ id: 'br_d' }),
    ];
    expect(findBlockingRule(rules, { country: 'NG' }, now)?.id).toBe('br_c');
    expect(findBlockingRule(rules, { country: 'FR' }, now)).toBeUndefined();
  });
});

describe('block rule values and types', () => {
  it.each([
    ['IP', 'ip'],
    ['ip', 'ip'],
    ['email', 'email'],
    ['card_bin', 'card_bin'],
    ['BIN', 'card_bin'],
    ['bin', 'card_bin'],
    ['country', 'country'],
    ['Country', 'country'],
    ['phone', undefined],
  ])('type %s → %s', (raw, type) => {
    expect(normalizeBlockRuleType(raw)).toBe(type);
  });

  it('treats IPv6 addresses as unprefixed values', () => {
    expect(parseCondition('ip', '2001:db8::1')).toEqual({ type: 'ip', pattern: '2001:db8::1' });
    expect(parseCondition('ip', 'ip:::1')).toEqual({ type: 'ip', pattern: '::1' });
    expect(parseCondition('country', 'BIN:411111')).toEqual({ type: 'card_bin', pattern: '411111' });
  });

  it.each([
    ['ip', '10.0.0.0/8', true],
    ['ip', '10.0.0.1', true],
    ['ip', '::1', true],
    ['ip', '10.0.0.0/33', false],
    ['ip', '10.0.0.0/8/1', false],
    ['ip', '999.0.0.1', false],
    ['email', 'a@b.co', true],
    ['email', '@b.co', true],
    ['email', '*@b.co', true],
    ['email', 'nope', false],
    ['card_bin', '123456', true],
    ['card_bin', '12345678', true],
    ['card_bin', '12345', false],
    ['card_bin', '123456789', false],
    ['country', 'NG', true],
    ['country', 'NGA', false],
  ] as const)('%s pattern %s valid=%s', (type, pattern, valid) => {
    expect(invalidPatternReason({ type, pattern }) === undefined).toBe(valid);
  });

  it('normalizes stored values', () => {
    expect(normalizeBlockRuleValue('email', ' Fraud@Example.COM ')).toBe('fraud@example.com');
    expect(normalizeBlockRuleValue('country', 'ng')).toBe('NG');
    expect(normalizeBlockRuleValue('country', 'country:ng')).toBe('NG');
    expect(normalizeBlockRuleValue('country', 'BIN:411111')).toBe('card_bin:411111');
    expect(normalizeBlockRuleValue('ip', '2001:DB8::1')).toBe('2001:DB8::1');
  });
});

describe('ipRulesEvaluated', () => {
  const ipRule = rule({ type: 'ip', value: ['203.0.113.0/24'] });
  const prefixed = rule({ type: 'country', value: ['NG', 'ip:10.0.0.0/8'], operator: 'AND' });
  const mail = rule({ type: 'email', value: ['@x.example'] });

  it('is undefined when no rule in force has an IP condition', () => {
    expect(ipRulesEvaluated([mail], { ip: '203.0.113.9' }, now)).toBeUndefined();
    expect(ipRulesEvaluated([{ ...ipRule, enabled: false }], {}, now)).toBeUndefined();
    expect(ipRulesEvaluated([{ ...ipRule, expiresAt: new Date('2026-11-01T00:00:00Z') }], {}, now)).toBeUndefined();
  });

  it('is false when IP rules are in force and the payment carries no IP: they then never match', () => {
    for (const rules of [[ipRule], [mail, prefixed]]) {
      expect(ipRulesEvaluated(rules, { ip: null }, now)).toBe(false);
      expect(ipRulesEvaluated(rules, {}, now)).toBe(false);
    }
    expect(findBlockingRule([ipRule, prefixed], { country: 'NG' }, now)).toBeUndefined();
  });

  it('is true when the payment carries an IP address to check them against', () => {
    expect(ipRulesEvaluated([ipRule], { ip: '198.51.100.1' }, now)).toBe(true);
    expect(ipRulesEvaluated([mail, prefixed], { ip: '2001:db8::1' }, now)).toBe(true);
  });
});
