import type { Db } from '../db/prisma';
import { newId } from '../domain/ids';
import { orNotFound } from '../errors';
import type { Scope } from './scope';
import { findStoreOfScope } from './storeOfScope';

export interface EmailTemplateFields {
  name: string;
  eventType: string;
  subject: string;
  bodyHtml: string;
  bodyText?: string | null;
  active?: boolean;
}

/** A store's e-mail template for an event (active unless said otherwise). */
export async function createEmailTemplate(db: Db, scope: Scope, input: EmailTemplateFields & { storeId: string }) {
  await findStoreOfScope(db, scope, input.storeId);
  return db.emailTemplate.create({
    data: {
      id: newId('emailTemplate'),
      ...scope,
      ...input,
      bodyText: input.bodyText ?? null,
      active: input.active ?? true,
    },
  });
}

/** Every template of one of the caller's stores, oldest first. */
export async function listEmailTemplates(db: Db, scope: Scope, storeId: string) {
  await findStoreOfScope(db, scope, storeId);
  return db.emailTemplate.findMany({
    where: { ...scope, storeId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** A template of the caller's account and mode, or not_found. */
export async function findEmailTemplate(db: Db, scope: Scope, templateId: string) {
  return orNotFound(await db.emailTemplate.findFirst({ where: { id: templateId, ...scope } }), 'Email template');
}

/** Changes the fields given on one of the caller's templates. */
export async function updateEmailTemplate(
  db: Db,
  scope: Scope,
  templateId: string,
  changes: Partial<EmailTemplateFields>,
) {
  const existing = await findEmailTemplate(db, scope, templateId);
  return db.emailTemplate.update({ where: { id: existing.id }, data: changes });
}
