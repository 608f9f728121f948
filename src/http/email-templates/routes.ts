import { z } from 'zod';
import { newId } from '../../domain/ids';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import { findStore } from '../../commerce/stores';
import {
  createEmailTemplateSchema,
  emailTemplateParams,
  emailTemplateSchema,
  listEmailTemplatesSchema,
  toPublicEmailTemplate,
  updateEmailTemplateSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['email-templates'];

export function registerEmailTemplateRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/email-templates/create',
      summary: 'Creates an email template for a store',
      tags,
      body: createEmailTemplateSchema,
      response: emailTemplateSchema,
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      await findStore(db, scope, body.storeId);
      const template = await db.emailTemplate.create({
        data: {
          id: newId('emailTemplate'),
          ...scope,
          ...body,
          bodyText: body.bodyText ?? null,
          active: body.active ?? true,
        },
      });
      return toPublicEmailTemplate(template);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/email-templates/list',
      summary: 'Returns all email templates of a store (oldest first)',
      tags,
      body: listEmailTemplatesSchema,
      response: z.object({ data: z.array(emailTemplateSchema) }).openapi('EmailTemplateList'),
    },
    async ({ body, req }) => {
      const scope = scopeOf(req);
      await findStore(db, scope, body.storeId);
      const rows = await db.emailTemplate.findMany({
        where: { ...scope, storeId: body.storeId },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      return { data: rows.map(toPublicEmailTemplate) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/email-templates/update',
      summary: 'Updates an email template',
      tags,
      body: updateEmailTemplateSchema,
      response: emailTemplateSchema,
    },
    async ({ body, req }) => {
      const existing = await db.emailTemplate.findFirst({ where: { id: body.id, ...scopeOf(req) } });
      if (!existing) throw notFound('Email template');
      return toPublicEmailTemplate(await db.emailTemplate.update({ where: { id: existing.id }, data: body.data }));
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/email-templates/:emailTemplateId',
      summary: 'Retrieves an email template',
      tags,
      params: emailTemplateParams,
      response: emailTemplateSchema,
    },
    async ({ params, req }) => {
      const template = await db.emailTemplate.findFirst({ where: { id: params.emailTemplateId, ...scopeOf(req) } });
      if (!template) throw notFound('Email template');
      return toPublicEmailTemplate(template);
    },
  );
}
