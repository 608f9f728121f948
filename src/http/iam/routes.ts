import { z } from 'zod';
import { embeddedJwks } from '../../iam/embeddedIdp';
import { addMember, changeMemberRole, listMembers, removeMember } from '../../iam/members';
import {
  canManageOrgMembership,
  canManagePartnerStaff,
  canRemoveMember,
  canViewAccount,
  canViewPartner,
  enforce,
} from '../../iam/policies';
import { mintServiceKey, listServiceKeys, revokeServiceKey } from '../../iam/serviceKeys';
import { createSessionVerifier } from '../../iam/sessions';
import { addStaff, changeStaffRole, listStaff, removeStaff } from '../../iam/staff';
import type { AppDeps } from '../core/context';
import { notFound } from '../../errors';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { accountOf, authorizeAccount } from './access';
import { registerIamPartnerRoutes } from './partnerRoutes';
import { iamOf, requireUserSession } from './session';
import * as v from './validators';

export const iamBasePath = '/api/v1/iam';
const tags = ['identity management'];
const security = 'iamSession' as const;

/**
 * Identity management: users' roles on accounts and partners, and merchant service keys (docs/iam.md).
 * Every route under an account or a partner decides the caller's right in `authorize`, before the
 * body is read (an outsider's invalid body is 404, an insufficient role's 403); what needs the body
 * (self-assignment: whom the e-mail names) is checked by the service once it is parsed.
 */
export function registerIamRoutes({ iamRouter, wellKnownRouter }: Routers, { db, config }: AppDeps): void {
  if (!config.IAM_JWKS_URL) {
    defineRoute(
      wellKnownRouter,
      '/.well-known',
      {
        method: 'get',
        path: '/jwks.json',
        summary: "The embedded identity provider's public signing keys (only when IAM_JWKS_URL is unset)",
        tags,
        security: 'none',
        response: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).openapi('Jwks'),
      },
      async () => embeddedJwks(config.DATA_DIR) as Promise<{ keys: Record<string, unknown>[] }>,
    );
  }

  // Cookie-authenticated changes are accepted from the API's own origin, PUBLIC_BASE_URL's and IAM_ALLOWED_ORIGINS.
  const allowedOrigins = [...config.IAM_ALLOWED_ORIGINS];
  if (config.PUBLIC_BASE_URL) allowedOrigins.push(new URL(config.PUBLIC_BASE_URL).origin);
  iamRouter.use(requireUserSession(db, createSessionVerifier(config), allowedOrigins));
  defineRoute(
    iamRouter,
    iamBasePath,
    { tags, security, method: 'get', path: '/me', summary: 'The signed-in user and their roles', response: v.meSchema },
    ({ req }) => v.toMe(iamOf(req).user, iamOf(req).grants),
  );

  defineRoute(
    iamRouter,
    iamBasePath,
    {
      tags,
      security,
      method: 'get',
      path: '/accounts/:accountId/members',
      summary: "Lists an account's members (its members and its partner's staff)",
      params: v.accountParams,
      authorize: authorizeAccount(db, canViewAccount),
      response: v.memberListSchema,
    },
    async ({ params, req }) => ({
      data: (await listMembers(db, iamOf(req).grants, await accountOf(db, req, params.accountId))).map(v.toMember),
    }),
  );

  defineRoute(
    iamRouter,
    iamBasePath,
    {
      tags,
      security,
      method: 'post',
      path: '/accounts/:accountId/members',
      summary: 'Adds a user by e-mail with a role (201); the same user and role again answers 200, created: false',
      params: v.accountParams,
      authorize: authorizeAccount(db, canManageOrgMembership),
      body: v.addMemberSchema,
      response: v.addedMemberSchema,
      otherResponseStatuses: [201],
      errors: [409],
    },
    async ({ params, body, req, res }) => {
      const account = await accountOf(db, req, params.accountId);
      const { member, created } = await addMember(db, iamOf(req).grants, account, body);
      if (created) res.status(201);
      return { ...v.toMember(member), created };
    },
  );

  defineRoute(
    iamRouter,
    iamBasePath,
    {
      tags,
      security,
      method: 'post',
      path: '/accounts/:accountId/members/:userId/role',
      summary: "Changes a member's role; never one's own, never the last org:admin's (409)",
      params: v.memberParams,
      authorize: authorizeAccount(db, canManageOrgMembership),
      body: v.memberRoleSchema,
      response: v.memberSchema,
      errors: [409],
    },
    async ({ params, body, req }) => {
      const account = await accountOf(db, req, params.accountId);
      return v.toMember(await changeMemberRole(db, iamOf(req).grants, account, params.userId, body.role));
    },
  );

  defineRoute(
    iamRouter,
    iamBasePath,
    {
      tags,
      security,
      method: 'delete',
      path: '/accounts/:accountId/members/:userId',
      summary: 'Removes a member (or leaves the account); never the last org:admin (409)',
      params: v.memberParams,
      authorize: authorizeAccount(db, (grants, account, { userId }) => canRemoveMember(grants, account, userId)),
      response: v.removedSchema,
      errors: [409],
    },
    async ({ params, req }) => {
      const account = await accountOf(db, req, params.accountId);
      const member = await removeMember(db, iamOf(req).grants, account, params.userId);
      return { deleted: true as const, userId: member.userId, role: member.role };
    },
  );

  defineRoute(
    iamRouter,
    iamBasePath,
    {
      tags,
      security,
      method: 'get',
      path: '/partners/:partnerId/staff',
      summary: "Lists a partner's staff",
      params: v.partnerParams,
      authorize: ({ params, req }) => enforce(canViewPartner(iamOf(req).grants, params.partnerId)),
      response: v.staffListSchema,
    },
    async ({ params, req }) => ({ data: (await listStaff(db, iamOf(req).grants, params.partnerId)).map(v.toStaff) }),
  );

  defineRoute(
    iamRouter,
    iamBasePath,
    {
      tags,
      security,
      method: 'post',
      path: '/partners/:partnerId/staff',
      summary: 'Adds a user by e-mail as partner staff (partner:admin only)',
      params: v.partnerParams,
      authorize: ({ params, req }) => enforce(canManagePartnerStaff(iamOf(req).grants, params.partnerId)),
      body: v.addStaffSchema,
      response: v.addedStaffSchema,
      otherResponseStatuses: [201],
      errors: [409],
    },
    async ({ params, body, req, res }) => {
      const { staff, created } = await addStaff(db, iamOf(req).grants, params.partnerId, body);
      if (created) res.status(201);
      return { ...v.toStaff(staff), created };
    },
  );

  defineRoute(
    iamRouter,
    iamBasePath,
    {
      tags,
      security,
      method: 'post',
      path: '/partners/:partnerId/staff/:userId/role',
      summary: "Changes a staff member's role (partner:admin only, never one's own)",
      params: v.staffParams,
      authorize: ({ params, req }) => enforce(canManagePartnerStaff(iamOf(req).grants, params.partnerId)),
      body: v.staffRoleSchema,
      response: v.staffSchema,
    },
    async ({ params, body, req }) =>
      v.toStaff(await changeStaffRole(db, iamOf(req).grants, params.partnerId, params.userId, body.role)),
  );

  defineRoute(
    iamRouter,
    iamBasePath,
    {
      tags,
      security,
      method: 'delete',
      path: '/partners/:partnerId/staff/:userId',
      summary: 'Removes a staff member (partner:admin only)',
      params: v.staffParams,
      authorize: ({ params, req }) => enforce(canManagePartnerStaff(iamOf(req).grants, params.partnerId)),
      response: v.removedSchema,
    },
    async ({ params, req }) => {
      const staff = await removeStaff(db, iamOf(req).grants, params.partnerId, params.userId);
      return { deleted: true as const, userId: staff.userId, role: staff.role };
    },
  );

  defineRoute(
    iamRouter,
    iamBasePath,
    {
      tags,
      security,
      method: 'post',
      path: '/accounts/:accountId/service-keys',
      summary: 'Mints a merchant service API key (sk_crm_…, org:admin on the account); the token is shown only here',
      params: v.accountParams,
      authorize: authorizeAccount(db, canManageOrgMembership),
      body: v.createServiceKeySchema,
      response: v.serviceKeySchema,
      status: 201,
    },
    async ({ params, body, req }) => {
      const account = await accountOf(db, req, params.accountId);
      const { key, token } = await mintServiceKey(db, iamOf(req).grants, account, body);
      return v.toServiceKey(key, token);
    },
  );

  defineRoute(
    iamRouter,
    iamBasePath,
    {
      tags,
      security,
      method: 'get',
      path: '/accounts/:accountId/service-keys',
      summary: "Lists the account's CRM keys (prefix and last 4 only)",
      params: v.accountParams,
      authorize: authorizeAccount(db, canManageOrgMembership),
      response: v.serviceKeyListSchema,
    },
    async ({ params, req }) => {
      const account = await accountOf(db, req, params.accountId);
      return { data: (await listServiceKeys(db, iamOf(req).grants, account)).map((key) => v.toServiceKey(key)) };
    },
  );

  defineRoute(
    iamRouter,
    iamBasePath,
    {
      tags,
      security,
      method: 'post',
      path: '/accounts/:accountId/service-keys/:keyId/revoke',
      summary: "Revokes one of the account's CRM keys, immediately and for good (idempotent)",
      params: v.serviceKeyParams,
      authorize: authorizeAccount(db, canManageOrgMembership),
      response: v.serviceKeySchema,
    },
    async ({ params, req }) => {
      const account = await accountOf(db, req, params.accountId);
      return v.toServiceKey(await revokeServiceKey(db, iamOf(req).grants, account, params.keyId));
    },
  );

  registerIamPartnerRoutes(iamRouter, iamBasePath, db, { tags, security });

  // Past every route: an unknown IAM path is 404 once the session is verified.
  iamRouter.use((req) => {
    throw notFound(`Route ${req.method} ${req.originalUrl.split('?')[0]}`);
  });
}
