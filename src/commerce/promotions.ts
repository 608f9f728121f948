import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import { readPage, scopedPageArgs } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import { newId } from '../domain/ids';
import { notFound, orNotFound } from '../errors';
import type { Scope } from './scope';
import { findStore } from './stores';

export const promotionList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', name: 'name', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    name: { kind: 'string' },
    storeId: { kind: 'id', prefix: 'store' },
    active: { kind: 'boolean' },
    discountType: { kind: 'enum', values: ['percentage', 'fixed_amount'] },
    createdAt: { kind: 'date' },
  },
};

/** Picks only what the public row needs: a pick, so the public shape never grows by accident. */
const publicFields = {
  id: true,
  storeId: true,
  name: true,
  discountType: true,
  percentBasisPoints: true,
  amountOff: true,
  currency: true,
  active: true,
  mode: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.PromotionSelect;

export type PublicPromotionRow = Prisma.PromotionGetPayload<{ select: typeof publicFields }>;

/** A percentage (basis points) or a fixed amount in one currency; the validator checks which fields go together. */
export interface NewPromotion {
  storeId: string;
  name: string;
  discountType: 'percentage' | 'fixed_amount';
  percentBasisPoints?: number;
  amountOff?: number;
  currency?: string;
  active?: boolean;
}

export async function createPromotion(db: Db, scope: Scope, input: NewPromotion): Promise<PublicPromotionRow> {
  await findStore(db, scope, input.storeId);
  return db.promotion.create({
    data: {
      id: newId('promotion'),
      ...scope,
      storeId: input.storeId,
      name: input.name,
      discountType: input.discountType,
      percentBasisPoints: input.percentBasisPoints ?? null,
      amountOff: input.amountOff ?? null,
      currency: input.currency ?? null,
      active: input.active ?? true,
    },
    select: publicFields,
  });
}

export async function listPromotions(db: Db, scope: Scope, query: ListQuery): Promise<Page<PublicPromotionRow>> {
  const args = scopedPageArgs<Prisma.PromotionFindManyArgs>(scope, query);
  return readPage(db.promotion.findMany({ ...args, select: publicFields }), db.promotion.count({ where: args.where }));
}

/** Renames or (de)activates a promotion; its discount never changes. */
export async function updatePromotion(
  db: Db,
  scope: Scope,
  promotionId: string,
  data: { name?: string; active?: boolean },
): Promise<PublicPromotionRow> {
  const existing = await db.promotion.findFirst({ where: { id: promotionId, ...scope } });
  if (!existing) throw notFound('Promotion');
  return db.promotion.update({ where: { id: existing.id }, data, select: publicFields });
}

export async function findPromotion(db: Db, scope: Scope, promotionId: string): Promise<PublicPromotionRow> {
  return orNotFound(
    await db.promotion.findFirst({ where: { id: promotionId, ...scope }, select: publicFields }),
    'Promotion',
  );
}
