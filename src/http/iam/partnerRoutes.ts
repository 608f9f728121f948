import type { Router } from 'express';
import type { Db } from '../../db/prisma';
import { listOwnPartners, updatePartner, viewPartner } from '../../iam/partners';
import { canManagePartners, canViewPartner, enforce } from '../../iam/policies';
import { defineRoute } from '../core/route';
import { iamOf } from './session';
import * as v from './validators';

/** The partner entities a user is staff of (docs/iam.md); mounted by registerIamRoutes behind the session check. */
export function registerIamPartnerRoutes(
  iamRouter: Router,
  basePath: string,
  db: Db,
  common: { tags: string[]; security: 'iamSession' },
): void {
  defineRoute(
    iamRouter,
    basePath,
    {
      ...common,
      method: 'get',
      path: '/partners',
      summary: 'Lists the partners the signed-in user is staff of, with their role on each',
      response: v.partnerListSchema,
    },
    async ({ req }) => {
      const { grants } = iamOf(req);
      return { data: (await listOwnPartners(db, grants)).map((partner) => v.toPartner(partner, grants)) };
    },
  );

  defineRoute(
    iamRouter,
    basePath,
    {
      ...common,
      method: 'get',
      path: '/partners/:partnerId',
      summary: 'A partner and its merchant accounts (its staff only; 404 to anyone else)',
      params: v.partnerParams,
      authorize: ({ params, req }) => enforce(canViewPartner(iamOf(req).grants, params.partnerId)),
      response: v.partnerDetailSchema,
    },
    async ({ params, req }) => {
      const { grants } = iamOf(req);
      return v.toPartnerDetail(await viewPartner(db, grants, params.partnerId), grants);
    },
  );

  defineRoute(
    iamRouter,
    basePath,
    {
      ...common,
      method: 'post',
      path: '/partners/:partnerId',
      summary: 'Renames a partner (partner:admin only; partner:member: 403 partneradmin_rx_option_required)',
      params: v.partnerParams,
      authorize: ({ params, req }) => enforce(canManagePartners(iamOf(req).grants, params.partnerId)),
      body: v.updatePartnerSchema,
      response: v.partnerSchema,
    },
    async ({ params, body, req }) => {
      const { grants } = iamOf(req);
      return v.toPartner(await updatePartner(db, grants, params.partnerId, body), grants);
    },
  );
}
