import { findEmailTemplate } from '../commerce/emailTemplates';
import type { Scope } from '../commerce/scope';
import { findStoreOfScope } from '../commerce/storeOfScope';
import type { Db } from '../db/prisma';
import { emailKinds, isEmailKind, sampleData } from './defaults';
import { renderTemplate } from './templates';

export type PreviewInput =
  | { templateId: string; language?: string }
  | {
      storeId: string;
      eventType: string;
      subject?: string;
      bodyHtml?: string;
      bodyText?: string | null;
      language?: string;
    };

/**
 * Renders a stored template, a draft, or (a draft without subject and body) the engine's default of
 * that kind, with sample data of the kind's shape. Nothing is sent. A template that does not parse
 * or run is a 400 TEMPLATE_INVALID naming the part.
 */
export async function previewEmail(db: Db, scope: Scope, input: PreviewInput) {
  const language = input.language ?? 'en';
  if ('templateId' in input) {
    const template = await findEmailTemplate(db, scope, input.templateId);
    const store = await findStoreOfScope(db, scope, template.storeId);
    const data = isEmailKind(template.eventType)
      ? sampleData(template.eventType, store, language)
      : { store: { name: store.name }, language };
    return { eventType: template.eventType, source: 'template' as const, ...(await renderTemplate(template, data)) };
  }
  const store = await findStoreOfScope(db, scope, input.storeId);
  const data = isEmailKind(input.eventType)
    ? sampleData(input.eventType, store, language)
    : { store: { name: store.name }, language };
  if (input.subject === undefined && input.bodyHtml === undefined && isEmailKind(input.eventType))
    return {
      eventType: input.eventType,
      source: 'default' as const,
      ...(await renderTemplate(emailKinds[input.eventType], data)),
    };
  const draft = { subject: input.subject ?? '', bodyHtml: input.bodyHtml ?? '', bodyText: input.bodyText ?? null };
  return { eventType: input.eventType, source: 'draft' as const, ...(await renderTemplate(draft, data)) };
}
