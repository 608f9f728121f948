import type { Scope } from '../commerce/scope';
import { findStoreOfScope } from '../commerce/storeOfScope';
import type { Db, Prisma } from '../db/prisma';
import { validateFunnelGraph, type FunnelStep } from '../domain/funnelGraph';
import { newId } from '../domain/ids';
import { invalid, notFound } from '../errors';

/** A step as a request gives it: edges name other steps by their `key`. */
export type FunnelStepInput = Omit<FunnelStep, 'id'>;

export interface FunnelRow {
  id: string;
  storeId: string;
  name: string;
  steps: FunnelStep[];
  mode: 'test' | 'live';
  createdAt: Date;
  updatedAt: Date;
}

const asRow = (row: Omit<FunnelRow, 'steps'> & { steps: Prisma.JsonValue }): FunnelRow => ({
  ...row,
  steps: row.steps as unknown as FunnelStep[],
});

/**
 * Checks the graph by keys, then gives each step its `step_` id (a key the funnel had before keeps
 * its id, so running sessions still find their step) and rewrites the edges to ids.
 */
async function stepsFor(db: Db, scope: Scope, input: FunnelStepInput[], before: FunnelStep[] = []) {
  const issues = validateFunnelGraph(input.map((step) => ({ ...step, id: step.key })));
  if (issues.length > 0)
    throw invalid(
      'The funnel graph is not valid',
      'INVALID_FUNNEL_GRAPH',
      issues.map((issue) => ({ path: `body.${issue.path}`, message: issue.message })),
    );
  const priceIds = [...new Set(input.flatMap((step) => (step.priceId ? [step.priceId] : [])))];
  const prices = await db.price.count({ where: { ...scope, id: { in: priceIds } } });
  if (prices !== priceIds.length) throw notFound('Price');
  const idOfKey = new Map(
    input.map((step) => [step.key, before.find((old) => old.key === step.key)?.id ?? newId('funnelStep')]),
  );
  const edge = (key: string | null | undefined) => (key ? idOfKey.get(key)! : null);
  return input.map((step): FunnelStep => ({
    id: idOfKey.get(step.key)!,
    key: step.key,
    type: step.type,
    name: step.name ?? null,
    next: edge(step.next),
    priceId: step.priceId ?? null,
    ...(step.titleTrans ? { titleTrans: step.titleTrans } : {}),
    onAccept: edge(step.onAccept),
    onDecline: edge(step.onDecline),
  }));
}

/** A funnel for one of the caller's stores, its graph checked. */
export async function createFunnel(
  db: Db,
  scope: Scope,
  input: { storeId: string; name: string; steps: FunnelStepInput[] },
): Promise<FunnelRow> {
  await findStoreOfScope(db, scope, input.storeId);
  const steps = await stepsFor(db, scope, input.steps);
  const row = await db.funnel.create({
    data: { id: newId('funnel'), ...scope, storeId: input.storeId, name: input.name, steps: steps as never },
  });
  return asRow(row);
}

/** Every funnel of one of the caller's stores, oldest first. */
export async function listFunnels(db: Db, scope: Scope, storeId: string): Promise<FunnelRow[]> {
  await findStoreOfScope(db, scope, storeId);
  const rows = await db.funnel.findMany({
    where: { ...scope, storeId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map(asRow);
}

/** A funnel of the caller's account and mode, or not_found. */
export async function findFunnel(db: Db, scope: Scope, funnelId: string): Promise<FunnelRow> {
  const row = await db.funnel.findFirst({ where: { id: funnelId, ...scope } });
  if (!row) throw notFound('Funnel');
  return asRow(row);
}

/** Renames a funnel and/or replaces its graph (steps whose key stays keep their ids). */
export async function updateFunnel(
  db: Db,
  scope: Scope,
  funnelId: string,
  changes: { name?: string; steps?: FunnelStepInput[] },
): Promise<FunnelRow> {
  const existing = await findFunnel(db, scope, funnelId);
  const steps = changes.steps ? await stepsFor(db, scope, changes.steps, existing.steps) : undefined;
  const row = await db.funnel.update({
    where: { id: existing.id },
    data: { ...(changes.name ? { name: changes.name } : {}), ...(steps ? { steps: steps as never } : {}) },
  });
  return asRow(row);
}

/** Deletes a funnel; sessions already running keep the graph they started with. */
export async function deleteFunnel(db: Db, scope: Scope, funnelId: string): Promise<void> {
  const existing = await findFunnel(db, scope, funnelId);
  await db.funnel.delete({ where: { id: existing.id } });
}
