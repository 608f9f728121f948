import {
  canAssignRole,
  canManageOrgMembership,
  canManagePartners,
  canManagePartnerStaff,
  canRemoveMember,
  canViewAccount,
  canViewPartner,
  type Decision,
  type Grants,
} from '../../src/iam/policies';

const account = { id: 'acc_1', partnerId: 'par_1' };
const foreignAccount = { id: 'acc_9', partnerId: 'par_9' };
const me = 'usr_me';
const other = 'usr_other';

const grants = {
  orgAdmin: { userId: me, memberships: [{ accountId: 'acc_1', role: 'org:admin' }], staff: [] },
  orgMember: { userId: me, memberships: [{ accountId: 'acc_1', role: 'org:member' }], staff: [] },
  partnerAdmin: { userId: me, memberships: [], staff: [{ partnerId: 'par_1', role: 'partner:admin' }] },
  partnerMember: { userId: me, memberships: [], staff: [{ partnerId: 'par_1', role: 'partner:member' }] },
  otherPartnerAdmin: { userId: me, memberships: [], staff: [{ partnerId: 'par_2', role: 'partner:admin' }] },
  nobody: { userId: me, memberships: [], staff: [] },
} satisfies Record<string, Grants>;
type Who = keyof typeof grants;

/** allow, 404 or the 403 code: one comparable value per cell. */
const outcome = (decision: Decision) =>
  decision.allowed ? 'allow' : decision.kind === 'not_found' ? 404 : decision.code;

describe('canManageOrgMembership', () => {
  it.each<[Who, unknown]>([
    ['orgAdmin', 'allow'],
    ['orgMember', 'FORBIDDEN'],
    ['partnerAdmin', 'allow'],
    ['partnerMember', 'FORBIDDEN'],
    ['otherPartnerAdmin', 404],
    ['nobody', 404],
  ])('%s → %s', (who, expected) => {
    expect(outcome(canManageOrgMembership(grants[who], account))).toBe(expected);
  });

  it("an org:admin elsewhere does not see another partner's account", () => {
    expect(outcome(canManageOrgMembership(grants.orgAdmin, foreignAccount))).toBe(404);
    expect(outcome(canViewAccount(grants.orgAdmin, foreignAccount))).toBe(404);
  });
});

describe('canViewAccount', () => {
  it.each<[Who, unknown]>([
    ['orgAdmin', 'allow'],
    ['orgMember', 'allow'],
    ['partnerAdmin', 'allow'],
    ['partnerMember', 'allow'],
    ['otherPartnerAdmin', 404],
    ['nobody', 404],
  ])('%s → %s', (who, expected) => {
    expect(outcome(canViewAccount(grants[who], account))).toBe(expected);
  });
});

describe('canRemoveMember', () => {
  it.each<[Who, unknown, unknown]>([
    ['orgAdmin', 'allow', 'allow'],
    ['orgMember', 'FORBIDDEN', 'allow'],
    ['partnerAdmin', 'allow', 'allow'],
    ['partnerMember', 'FORBIDDEN', 'allow'],
    ['otherPartnerAdmin', 404, 404],
    ['nobody', 404, 404],
  ])('%s → someone else: %s, themselves (leave): %s', (who, someoneElse, themselves) => {
    expect(outcome(canRemoveMember(grants[who], account, other))).toBe(someoneElse);
    expect(outcome(canRemoveMember(grants[who], account, me))).toBe(themselves);
  });
});

describe('canViewPartner', () => {
  it.each<[Who, unknown]>([
    ['partnerAdmin', 'allow'],
    ['partnerMember', 'allow'],
    ['otherPartnerAdmin', 404],
    ['orgAdmin', 404],
    ['nobody', 404],
  ])('%s → %s', (who, expected) => {
    expect(outcome(canViewPartner(grants[who], 'par_1'))).toBe(expected);
  });
});

describe.each([
  ['canManagePartnerStaff', canManagePartnerStaff],
  ['canManagePartners', canManagePartners],
])('%s', (_name, policy) => {
  it.each<[Who, unknown]>([
    ['partnerAdmin', 'allow'],
    ['partnerMember', 'partneradmin_rx_option_required'],
    ['otherPartnerAdmin', 404],
    ['orgAdmin', 404],
    ['nobody', 404],
  ])('%s → %s', (who, expected) => {
    expect(outcome(policy(grants[who], 'par_1'))).toBe(expected);
  });
});

describe('canAssignRole', () => {
  it.each<[Who, string, unknown]>([
    ['orgAdmin', other, 'allow'],
    ['orgAdmin', me, 'self_assignment_denied'],
    ['orgMember', other, 'FORBIDDEN'],
    ['orgMember', me, 'self_assignment_denied'],
    ['partnerAdmin', other, 'allow'],
    ['partnerAdmin', me, 'self_assignment_denied'],
    ['partnerMember', other, 'FORBIDDEN'],
    ['nobody', other, 404],
    ['nobody', me, 404],
  ])('on an account: %s assigning to %s → %s', (who, target, expected) => {
    expect(outcome(canAssignRole(grants[who], { userId: target, account }))).toBe(expected);
  });

  it.each<[Who, string, unknown]>([
    ['partnerAdmin', other, 'allow'],
    ['partnerAdmin', me, 'self_assignment_denied'],
    ['partnerMember', other, 'partneradmin_rx_option_required'],
    ['orgAdmin', other, 404],
    ['otherPartnerAdmin', other, 404],
  ])('on a partner: %s assigning to %s → %s', (who, target, expected) => {
    expect(outcome(canAssignRole(grants[who], { userId: target, partnerId: 'par_1' }))).toBe(expected);
  });
});
