import { BlockList, isIP } from 'node:net';

/**
 * Block-rule matching (used from an activity, never from workflow code: it needs node:net).
 *
 * A rule is a list of conditions. Each value is a pattern of the rule's `type`, or, to combine
 * signals, a pattern of another type written `<type>:<pattern>` (`country:NG`, `bin:411111`,
 * `email:@example.com`, `ip:10.0.0.0/8`). `OR`: the rule matches when any condition holds.
 * `AND`: when every condition holds (e.g. type `country`, values `["NG", "bin:411111"]` blocks
 * that BIN from that country only). A condition on a signal the payment does not carry does not
 * hold. Disabled rules and rules at or past `expiresAt` never match.
 *
 * Patterns: ip = an address or a CIDR subnet (IPv4 or IPv6); email = a whole address
 * (case-insensitive) or a domain written `@domain` / `*@domain`; card_bin = 6 to 8 digits that
 * prefix the card number; country = ISO 3166-1 alpha-2.
 */
export type BlockRuleType = 'ip' | 'email' | 'card_bin' | 'country';
export const blockRuleTypes: readonly BlockRuleType[] = ['ip', 'email', 'card_bin', 'country'];

export interface BlockRuleInput {
  id: string;
  name: string;
  type: BlockRuleType;
  value: string[];
  operator: 'OR' | 'AND';
  enabled: boolean;
  expiresAt: Date | null;
}

export interface PaymentSignals {
  ip?: string | null;
  email?: string | null;
  /** The card's leading digits (pass at least 8, or the whole number: only the first 8 are used). */
  cardBin?: string | null;
  /** ISO 3166-1 alpha-2 of the card or payer. */
  country?: string | null;
}

export interface Condition {
  type: BlockRuleType;
  pattern: string;
}

const typeAliases: Record<string, BlockRuleType> = {
  ip: 'ip',
  email: 'email',
  card_bin: 'card_bin',
  bin: 'card_bin',
  country: 'country',
};

/** `IP`, `BIN`, `card_bin`… as the API accepts them, to the stored spelling. */
export function normalizeBlockRuleType(raw: string): BlockRuleType | undefined {
  return typeAliases[raw.toLowerCase()];
}

/** Splits an optional `<type>:` prefix; IPv6 addresses are safe because no type name is hex. */
export function parseCondition(ruleType: BlockRuleType, raw: string): Condition {
  const value = raw.trim();
  const colon = value.indexOf(':');
  const prefixed = colon > 0 ? normalizeBlockRuleType(value.slice(0, colon)) : undefined;
  return prefixed ? { type: prefixed, pattern: value.slice(colon + 1).trim() } : { type: ruleType, pattern: value };
}

/** Why a pattern is not valid for its type, or undefined when it is. */
export function invalidPatternReason(condition: Condition): string | undefined {
  const { type, pattern } = condition;
  switch (type) {
    case 'ip':
      return ipMatcher(pattern) ? undefined : `"${pattern}" is not an IP address or CIDR subnet`;
    case 'email':
      return /^(\*?@[^@\s]+\.[^@\s]+|[^@\s]+@[^@\s]+\.[^@\s]+)$/.test(pattern)
        ? undefined
        : `"${pattern}" is not an e-mail address or @domain`;
    case 'card_bin':
      return /^\d{6,8}$/.test(pattern) ? undefined : `"${pattern}" is not a BIN of 6 to 8 digits`;
    case 'country':
      return /^[A-Za-z]{2}$/.test(pattern) ? undefined : `"${pattern}" is not an ISO 3166-1 alpha-2 country code`;
  }
}

/** The stored spelling of a value: lower-case e-mail patterns, upper-case countries, prefix kept. */
export function normalizeBlockRuleValue(ruleType: BlockRuleType, raw: string): string {
  const condition = parseCondition(ruleType, raw);
  const pattern =
    condition.type === 'email'
      ? condition.pattern.toLowerCase()
      : condition.type === 'country'
        ? condition.pattern.toUpperCase()
        : condition.pattern;
  return condition.type === ruleType ? pattern : `${condition.type}:${pattern}`;
}

/** The first rule (in the given order) that blocks a payment with these signals, if any. */
export function findBlockingRule(
  rules: BlockRuleInput[],
  signals: PaymentSignals,
  now: Date,
): BlockRuleInput | undefined {
  return rules.find((rule) => ruleMatches(rule, signals, now));
}

/** Enabled and not expired. */
function inForce(rule: BlockRuleInput, now: Date): boolean {
  return rule.enabled && !(rule.expiresAt && now.getTime() >= rule.expiresAt.getTime());
}

/**
 * Whether the payer's IP could be checked against the rules: undefined when no rule in force has an
 * IP condition, false when some has but the payment carries no IP (those conditions do not hold).
 */
export function ipRulesEvaluated(rules: BlockRuleInput[], signals: PaymentSignals, now: Date): boolean | undefined {
  const checksIp = rules.some(
    (rule) => inForce(rule, now) && rule.value.some((value) => parseCondition(rule.type, value).type === 'ip'),
  );
  if (!checksIp) return undefined;
  return !!signals.ip && plainIp(signals.ip) !== undefined;
}

export function ruleMatches(rule: BlockRuleInput, signals: PaymentSignals, now: Date): boolean {
  if (!inForce(rule, now)) return false;
  const conditions = rule.value.map((value) => parseCondition(rule.type, value));
  if (conditions.length === 0) return false;
  const holds = (condition: Condition) => conditionHolds(condition, signals);
  return rule.operator === 'AND' ? conditions.every(holds) : conditions.some(holds);
}

function conditionHolds({ type, pattern }: Condition, signals: PaymentSignals): boolean {
  switch (type) {
    case 'ip':
      return !!signals.ip && ipHolds(pattern, signals.ip);
    case 'email':
      return !!signals.email && emailHolds(pattern, signals.email);
    case 'card_bin': {
      const digits = (signals.cardBin ?? '').replace(/\D/g, '').slice(0, 8);
      return /^\d{6,8}$/.test(pattern) && digits.length >= pattern.length && digits.startsWith(pattern);
    }
    case 'country':
      return !!signals.country && signals.country.trim().toUpperCase() === pattern.toUpperCase();
  }
}

function emailHolds(pattern: string, email: string): boolean {
  const address = email.trim().toLowerCase();
  const wanted = pattern.toLowerCase();
  if (wanted.startsWith('@') || wanted.startsWith('*@')) return address.endsWith(wanted.slice(wanted.indexOf('@')));
  return address === wanted;
}

function ipHolds(pattern: string, ip: string): boolean {
  const matcher = ipMatcher(pattern);
  const address = plainIp(ip);
  if (!matcher || !address) return false;
  return matcher.check(address.address, address.family);
}

/** IPv4-mapped IPv6 (`::ffff:1.2.3.4`, what dual-stack servers report) counts as the IPv4 address. */
function plainIp(raw: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  const trimmed = raw.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  const address = mapped ? mapped[1]! : trimmed;
  const version = isIP(address);
  if (version === 4) return { address, family: 'ipv4' };
  if (version === 6) return { address, family: 'ipv6' };
  return undefined;
}

function ipMatcher(pattern: string): BlockList | undefined {
  const [rawAddress, rawPrefix, ...rest] = pattern.split('/');
  if (rest.length > 0 || !rawAddress) return undefined;
  const address = plainIp(rawAddress);
  if (!address) return undefined;
  const list = new BlockList();
  if (rawPrefix === undefined) {
    list.addAddress(address.address, address.family);
    return list;
  }
  const prefix = /^\d{1,3}$/.test(rawPrefix) ? Number(rawPrefix) : NaN;
  if (!(prefix >= 0 && prefix <= (address.family === 'ipv4' ? 32 : 128))) return undefined;
  list.addSubnet(address.address, prefix, address.family);
  return list;
}
