import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import type { Db, Prisma } from '../db/prisma';
import type { PromotionCode } from '../generated/prisma/client';
import { newId } from '../domain/ids';
import { notFound } from '../errors';
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
  const where = { ...scope, AND: query.where } as Prisma.PromotionCodeWhereInput;
  const [rows, total] = await Promise.all([
    db.promotionCode.findMany({
      where,
      orderBy: query.orderBy as Prisma.PromotionCodeOrderByWithRelationInput[],
      skip: query.skip,
      take: query.take,
    }),
    db.promotionCode.count({ where }),
  ]);
  return { rows, total };
}

/** A promotion code of the caller's account and mode, or not_found. */
export async function findPromotionCode(db: Db, scope: Scope, promotionCodeId: string): Promise<PromotionCode> {
  const code = await db.promotionCode.findFirst({ where: { id: promotionCodeId, ...scope } });
  if (!code) throw notFound('Promotion code');
  return code;
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
