import { z } from 'zod';
import { embeddedJwks } from '../../iam/embeddedIdp';
import { addMember, changeMemberRole, listMembers, removeMember } from '../../iam/members';
import { mintServiceKey, listServiceKeys, revokeServiceKey } from '../../iam/serviceKeys';
import { createSessionVerifier } from '../../iam/sessions';
import { addStaff, changeStaffRole, listStaff, removeStaff } from '../../iam/staff';
import type { AppDeps } from '../core/context';
import { notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { registerIamPartnerRoutes } from './partnerRoutes';
import { iamOf, requireUserSession } from './session';
import * as v from './validators';

export const iamBasePath = '/api/v1/iam';
const tags = ['identity management'];
const security = 'iamSession' as const;

/** Identity management: users' roles on accounts and partners, and merchant service keys (docs/iam.md). */
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

  iamRouter.use(requireUserSession(db, createSessionVerifier(config)));
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
      response: v.memberListSchema,
    },
    async ({ params, req }) => ({
      data: (await listMembers(db, iamOf(req).grants, params.accountId)).map(v.toMember),
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
      body: v.addMemberSchema,
      response: v.addedMemberSchema,
      otherResponseStatuses: [201],
      errors: [409],
    },
    async ({ params, body, req, res }) => {
      const { member, created } = await addMember(db, iamOf(req).grants, params.accountId, body);
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
      body: v.memberRoleSchema,
      response: v.memberSchema,
      errors: [409],
    },
    async ({ params, body, req }) =>
      v.toMember(await changeMemberRole(db, iamOf(req).grants, params.accountId, params.userId, body.role)),
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
      response: v.removedSchema,
      errors: [409],
    },
    async ({ params, req }) => {
      const member = await removeMember(db, iamOf(req).grants, params.accountId, params.userId);
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
      body: v.createServiceKeySchema,
      response: v.serviceKeySchema,
      status: 201,
    },
    async ({ params, body, req }) => {
      const { key, token } = await mintServiceKey(db, iamOf(req).grants, params.accountId, body);
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
      response: v.serviceKeyListSchema,
    },
    async ({ params, req }) => ({
      data: (await listServiceKeys(db, iamOf(req).grants, params.accountId)).map((key) => v.toServiceKey(key)),
    }),
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
      response: v.serviceKeySchema,
    },
    async ({ params, req }) =>
      v.toServiceKey(await revokeServiceKey(db, iamOf(req).grants, params.accountId, params.keyId)),
  );

  registerIamPartnerRoutes(iamRouter, iamBasePath, db, { tags, security });

  // Past every route: an unknown IAM path is 404 once the session is verified.
  iamRouter.use((req) => {
    throw notFound(`Route ${req.method} ${req.originalUrl.split('?')[0]}`);
  });
}
