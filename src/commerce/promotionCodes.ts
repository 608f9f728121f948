import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import { readPage, scopedPageArgs } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import type { PromotionCode } from '../generated/prisma/client';
import { newId } from '../domain/ids';
import { notFound, orNotFound } from '../errors';
import type { Scope } from './scope';

export const promotionCodeList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', code: 'code', timesRedeemed: 'timesRedeemed', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    code: { kind: 'string' },
    promotionId: { kind: 'id', prefix: 'promo' },
    active: { kind: 'boolean' },
    firstTimeCustomersOnly: { kind: 'boolean' },
    createdAt: { kind: 'date' },
  },
};

/** A code as stored: upper case (codes are matched case-insensitively). */
export interface PromotionCodeFields {
  code: string;
  usageLimit?: number | null;
  active?: boolean;
  firstTimeCustomersOnly?: boolean;
}

/** A code for one of the caller's promotions; a code taken in the account and mode is a unique violation (409). */
export async function createPromotionCode(
  db: Db,
  scope: Scope,
  input: PromotionCodeFields & { promotionId: string },
): Promise<PromotionCode> {
  const promotion = await db.promotion.findFirst({ where: { id: input.promotionId, ...scope } });
  if (!promotion) throw notFound('Promotion');
  return db.promotionCode.create({
    data: {
      id: newId('promotionCode'),
      ...scope,
      promotionId: promotion.id,
      code: input.code,
      usageLimit: input.usageLimit ?? null,
      active: input.active ?? true,
      firstTimeCustomersOnly: input.firstTimeCustomersOnly ?? false,
    },
  });
}

export async function listPromotionCodes(db: Db, scope: Scope, query: ListQuery): Promise<Page<PromotionCode>> {
  const args = scopedPageArgs<Prisma.PromotionCodeFindManyArgs>(scope, query);
  return readPage(db.promotionCode.findMany(args), db.promotionCode.count({ where: args.where }));
}

/** A promotion code of the caller's account and mode, or not_found. */
export async function findPromotionCode(db: Db, scope: Scope, promotionCodeId: string): Promise<PromotionCode> {
  return orNotFound(await db.promotionCode.findFirst({ where: { id: promotionCodeId, ...scope } }), 'Promotion code');
}

export async function updatePromotionCode(
  db: Db,
  scope: Scope,
  promotionCodeId: string,
  data: Partial<PromotionCodeFields>,
): Promise<PromotionCode> {
  const existing = await findPromotionCode(db, scope, promotionCodeId);
  return db.promotionCode.update({ where: { id: existing.id }, data });
}
