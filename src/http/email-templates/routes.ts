import { z } from 'zod';
import {
  createEmailTemplate,
  findEmailTemplate,
  listEmailTemplates,
  updateEmailTemplate,
} from '../../commerce/emailTemplates';
import { emailKindNames, emailKinds } from '../../email/defaults';
import { previewEmail } from '../../email/preview';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import {
  createEmailTemplateSchema,
  emailPreviewSchema,
  emailTemplateParams,
  emailTemplateSchema,
  listEmailTemplatesSchema,
  previewEmailTemplateSchema,
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
      path: '/email-templates/preview',
      summary:
        "Renders an e-mail template with sample data: a stored one, a draft, or the engine's default of an event type",
      description:
        'Liquid templates; the HTML body escapes every output unless the template says raw. Event types the engine sends: ' +
        emailKindNames.map((kind) => `${kind} (${emailKinds[kind].description})`).join(', ') +
        '. Nothing is sent. A template that does not parse is a 400 TEMPLATE_INVALID.',
      tags,
      body: previewEmailTemplateSchema,
      example: { templateId: 'et_7YhN2uJm5IkO8lPq3AzW', language: 'de' },
      response: emailPreviewSchema,
    },
    async ({ body, req }) => previewEmail(db, scopeOf(req), body),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/email-templates/create',
      summary: 'Creates an email template for a store',
      description:
        "Creates a store's e-mail template for one event type (e.g. order/paid): subject and HTML and text bodies. Check how it renders with /email-templates/preview.",
      tags,
      body: createEmailTemplateSchema,
      example: {
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        name: 'Order confirmation',
        eventType: 'order/paid',
        subject: 'Thanks for your order {{order.id}}',
        bodyHtml: '<p>Hello {{customer.firstName}}, your order is paid.</p>',
        bodyText: 'Hello {{customer.firstName}}, your order is paid.',
      },
      response: emailTemplateSchema,
    },
    async ({ body, req }) => toPublicEmailTemplate(await createEmailTemplate(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/email-templates/list',
      summary: 'Returns all email templates of a store (oldest first)',
      description: 'All e-mail templates of a store, oldest first.',
      tags,
      body: listEmailTemplatesSchema,
      example: { storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ' },
      response: z.object({ data: z.array(emailTemplateSchema) }).openapi('EmailTemplateList'),
    },
    async ({ body, req }) => ({
      data: (await listEmailTemplates(db, scopeOf(req), body.storeId)).map(toPublicEmailTemplate),
    }),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/email-templates/update',
      summary: 'Updates an email template',
      description:
        "Changes an e-mail template's name, subject, bodies or active flag; messages sent from then on use it.",
      tags,
      body: updateEmailTemplateSchema,
      example: {
        id: 'et_7YhN2uJm5IkO8lPq3AzW',
        data: { subject: 'Your order {{order.id}} is on its way', active: true },
      },
      response: emailTemplateSchema,
    },
    async ({ body, req }) => toPublicEmailTemplate(await updateEmailTemplate(db, scopeOf(req), body.id, body.data)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/email-templates/:emailTemplateId',
      summary: 'Retrieves an email template',
      description: 'One e-mail template.',
      tags,
      params: emailTemplateParams,
      response: emailTemplateSchema,
    },
    async ({ params, req }) => toPublicEmailTemplate(await findEmailTemplate(db, scopeOf(req), params.emailTemplateId)),
  );
}
