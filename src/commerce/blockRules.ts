import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import { readPage, scopedPageArgs } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import type { BlockRule } from '../generated/prisma/client';
import {
  invalidPatternReason,
  normalizeBlockRuleValue,
  parseCondition,
  type BlockRuleType,
} from '../domain/blockRules';
import { newId } from '../domain/ids';
import { invalid, orNotFound } from '../errors';
import type { Scope } from './scope';

export const blockRuleList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', name: 'name', id: 'id', expiresAt: 'expiresAt' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    name: { kind: 'string' },
    type: { kind: 'enum', values: ['ip', 'email', 'card_bin', 'country'] },
    operator: { kind: 'enum', values: ['OR', 'AND'] },
    enabled: { kind: 'boolean' },
    createdAt: { kind: 'date' },
    expiresAt: { kind: 'date' },
  },
};

export interface BlockRuleFields {
  name: string;
  type: BlockRuleType;
  value: string[];
  enabled?: boolean;
  operator?: 'OR' | 'AND';
  /** Hours from creation (or from the update that sets it) until the rule stops matching; null: never. */
  ttlHours?: number | null;
}

/** Checks each value against its type and returns the stored spellings; invalid (VALIDATION_ERROR) listing every bad value. */
function normalizedValues(type: BlockRuleType, values: string[]): string[] {
  const issues = values.flatMap((value, index) => {
    const reason = invalidPatternReason(parseCondition(type, value));
    return reason ? [{ message: `value.${index}: ${reason}`, path: `value.${index}` }] : [];
  });
  if (issues.length) throw invalid(`Invalid block rule value: ${issues[0]!.message}`, 'VALIDATION_ERROR', issues);
  return [...new Set(values.map((value) => normalizeBlockRuleValue(type, value)))];
}

function expiryFrom(start: Date, ttlHours: number | null | undefined): Date | null {
  return ttlHours ? new Date(start.getTime() + ttlHours * 3_600_000) : null;
}

/** A block rule of the caller's account and mode, or not_found. */
export async function findBlockRule(db: Db | Prisma.TransactionClient, scope: Scope, ruleId: string) {
  return orNotFound(await db.blockRule.findFirst({ where: { id: ruleId, ...scope } }), 'Block rule');
}

export async function createBlockRule(db: Db, scope: Scope, input: BlockRuleFields): Promise<BlockRule> {
  const createdAt = new Date();
  return db.blockRule.create({
    data: {
      id: newId('blockRule'),
      ...scope,
      name: input.name,
      type: input.type,
      value: normalizedValues(input.type, input.value),
      operator: input.operator ?? 'OR',
      enabled: input.enabled ?? true,
      ttlHours: input.ttlHours ?? null,
      expiresAt: expiryFrom(createdAt, input.ttlHours),
      createdAt,
    },
  });
}

export async function listBlockRules(db: Db, scope: Scope, query: ListQuery): Promise<Page<BlockRule>> {
  const args = scopedPageArgs<Prisma.BlockRuleFindManyArgs>(scope, query);
  return readPage(db.blockRule.findMany(args), db.blockRule.count({ where: args.where }));
}

/** Changes a rule; a new ttlHours restarts the expiry from now (null removes it). */
export async function updateBlockRule(
  db: Db,
  scope: Scope,
  ruleId: string,
  data: Partial<BlockRuleFields>,
): Promise<BlockRule> {
  const existing = await findBlockRule(db, scope, ruleId);
  const type = data.type ?? (existing.type as BlockRuleType);
  // A new type re-checks the kept values, so a rule can never hold values its type cannot match.
  const value = data.value || data.type ? normalizedValues(type, data.value ?? existing.value) : undefined;
  return db.blockRule.update({
    where: { id: existing.id },
    data: {
      name: data.name,
      type: data.type,
      value,
      operator: data.operator,
      enabled: data.enabled,
      ...(data.ttlHours !== undefined
        ? { ttlHours: data.ttlHours, expiresAt: expiryFrom(new Date(), data.ttlHours) }
        : {}),
    },
  });
}

export async function deleteBlockRule(db: Db, scope: Scope, ruleId: string): Promise<{ id: string }> {
  const existing = await findBlockRule(db, scope, ruleId);
  await db.blockRule.delete({ where: { id: existing.id } });
  return { id: existing.id };
}
