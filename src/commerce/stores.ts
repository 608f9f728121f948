import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import type { Db, Prisma } from '../db/prisma';
import type { Store } from '../generated/prisma/client';
import { newId } from '../domain/ids';
import { DomainError, orNotFound } from '../errors';
import type { Scope } from './scope';

type Tx = Prisma.TransactionClient;

export const storeList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', name: 'name', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: { name: { kind: 'string' }, baseCurrency: { kind: 'string' }, createdAt: { kind: 'date' } },
};

export interface StoreFields {
  name: string;
  baseCurrency: string;
  presentmentCurrencies?: string[];
  defaultPaymentFlowId?: string | null;
}

/** A store of the caller's account and mode, or not_found. */
export async function findStore(db: Db | Tx, scope: Scope, storeId: string): Promise<Store> {
  return orNotFound(await db.store.findFirst({ where: { id: storeId, ...scope } }), 'Store');
}

/** A default payment flow must be one of the caller's own flows in the same mode; otherwise not_found naming the field. */
async function assertPaymentFlowInScope(db: Db, scope: Scope, flowId: string | null | undefined): Promise<void> {
  if (!flowId) return;
  const flow = await db.paymentFlow.findFirst({ where: { id: flowId, ...scope }, select: { id: true } });
  if (!flow)
    throw new DomainError(
      'not_found',
      'PAYMENT_FLOW_NOT_FOUND',
      'defaultPaymentFlowId: payment flow not found in this account and mode',
    );
}

/** Presentment currencies always include the base currency. */
function withBase(base: string, presentment: string[] | undefined): string[] {
  return [...new Set([base, ...(presentment ?? [])])];
}

export async function createStore(db: Db, scope: Scope, input: StoreFields): Promise<Store> {
  await assertPaymentFlowInScope(db, scope, input.defaultPaymentFlowId);
  return db.store.create({
    data: {
      id: newId('store'),
      ...scope,
      name: input.name,
      baseCurrency: input.baseCurrency,
      presentmentCurrencies: withBase(input.baseCurrency, input.presentmentCurrencies),
      defaultPaymentFlowId: input.defaultPaymentFlowId ?? null,
    },
  });
}

export async function listStores(db: Db, scope: Scope, query: ListQuery): Promise<Page<Store>> {
  const where = { ...scope, AND: query.where } as Prisma.StoreWhereInput;
  const [rows, total] = await Promise.all([
    db.store.findMany({
      where,
      orderBy: query.orderBy as Prisma.StoreOrderByWithRelationInput[],
      skip: query.skip,
      take: query.take,
    }),
    db.store.count({ where }),
  ]);
  return { rows, total };
}

/** A new base currency keeps the stored presentment currencies (plus the new base) unless new ones are given. */
export async function updateStore(db: Db, scope: Scope, storeId: string, data: Partial<StoreFields>): Promise<Store> {
  const existing = await findStore(db, scope, storeId);
  await assertPaymentFlowInScope(db, scope, data.defaultPaymentFlowId);
  const baseCurrency = data.baseCurrency ?? existing.baseCurrency;
  const presentment = data.presentmentCurrencies ?? (data.baseCurrency ? existing.presentmentCurrencies : undefined);
  return db.store.update({
    where: { id: existing.id },
    data: {
      name: data.name,
      baseCurrency,
      presentmentCurrencies: presentment ? withBase(baseCurrency, presentment) : undefined,
      defaultPaymentFlowId: data.defaultPaymentFlowId,
    },
  });
}
