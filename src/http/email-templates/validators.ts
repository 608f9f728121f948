import { z } from 'zod';
import { idOf, idParam } from '../../commerce/schemas';

export const emailTemplateSchema = z
  .object({
    id: z.string(),
    storeId: z.string(),
    name: z.string(),
    eventType: z.string(),
    subject: z.string(),
    bodyHtml: z.string(),
    bodyText: z.string().nullable(),
    active: z.boolean(),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('EmailTemplate');

const fields = {
  name: z.string().trim().min(1).max(200),
  eventType: z
    .string()
    .regex(/^[a-z0-9_./-]{1,100}$/, 'event type such as order/paid')
    .openapi({ description: 'Event the template is sent for, e.g. order/paid' }),
  subject: z.string().trim().min(1).max(300),
  bodyHtml: z.string().min(1).max(200_000),
  bodyText: z.string().max(100_000).nullable(),
  active: z.boolean(),
};

export const createEmailTemplateSchema = z
  .object({ storeId: idOf('store'), ...fields })
  .partial({ bodyText: true, active: true })
  .strict();
export const updateEmailTemplateSchema = z
  .object({ id: idOf('et'), data: z.object(fields).partial().strict() })
  .strict();
export const listEmailTemplatesSchema = z.object({ storeId: idOf('store') }).strict();
export const emailTemplateParams = idParam('emailTemplateId', 'et');

export function toPublicEmailTemplate(row: {
  id: string;
  storeId: string;
  name: string;
  eventType: string;
  subject: string;
  bodyHtml: string;
  bodyText: string | null;
  active: boolean;
  mode: 'test' | 'live';
  createdAt: Date;
  updatedAt: Date;
}) {
  return {
    id: row.id,
    storeId: row.storeId,
    name: row.name,
    eventType: row.eventType,
    subject: row.subject,
    bodyHtml: row.bodyHtml,
    bodyText: row.bodyText,
    active: row.active,
    mode: row.mode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** `POST /email-templates/preview`: a stored template, a draft, or the engine's default of an event type. */
export const previewEmailTemplateSchema = z
  .union([
    z.object({ templateId: idOf('et'), language: z.string().max(35).optional() }).strict(),
    z
      .object({
        storeId: idOf('store'),
        eventType: fields.eventType,
        subject: fields.subject.optional(),
        bodyHtml: fields.bodyHtml.optional(),
        bodyText: fields.bodyText.optional(),
        language: z.string().max(35).optional(),
      })
      .strict()
      .refine((body) => (body.subject === undefined) === (body.bodyHtml === undefined), {
        message: 'give subject and bodyHtml together (a draft), or neither (the engine default)',
        path: ['subject'],
      }),
  ])
  .openapi('EmailTemplatePreviewRequest');

export const emailPreviewSchema = z
  .object({
    eventType: z.string(),
    source: z.enum(['template', 'draft', 'default']),
    subject: z.string(),
    html: z.string().openapi({ description: 'Every output escaped unless the template says raw' }),
    text: z.string(),
  })
  .openapi('EmailTemplatePreview');
