import { z } from 'zod';
import type { Db, Prisma } from '../../db/prisma';
import { newId } from '../../domain/ids';
import type { BlockRuleType } from '../../domain/blockRules';
import { scopeOf, type Scope } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { notFound } from '../core/errors';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestSchema, listResponseSchema, pageInfo, type ListDefinition } from '../lists';
import type { Routers } from '../routes';
import {
  blockRuleParams,
  blockRuleSchema,
  createBlockRuleSchema,
  expiryFrom,
  normalizedValues,
  toPublicBlockRule,
  updateBlockRuleSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['block-rules'];

const blockRuleList: ListDefinition = {
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

async function findBlockRule(db: Db | Prisma.TransactionClient, scope: Scope, ruleId: string) {
  const rule = await db.blockRule.findFirst({ where: { id: ruleId, ...scope } });
  if (!rule) throw notFound('Block rule');
  return rule;
}

export function registerBlockRuleRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/block-rules',
      summary: 'Creates a block rule',
      tags,
      body: createBlockRuleSchema,
      response: blockRuleSchema,
    },
    async ({ body, req }) => {
      const createdAt = new Date();
      const rule = await db.blockRule.create({
        data: {
          id: newId('blockRule'),
          ...scopeOf(req),
          name: body.name,
          type: body.type,
          value: normalizedValues(body.type, body.value),
          operator: body.operator ?? 'OR',
          enabled: body.enabled ?? true,
          ttlHours: body.ttlHours ?? null,
          expiresAt: expiryFrom(createdAt, body.ttlHours),
          createdAt,
        },
      });
      return toPublicBlockRule(rule);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/block-rules/list',
      summary: 'Lists block rules (offset pagination, filters)',
      tags,
      body: listRequestSchema,
      response: listResponseSchema(blockRuleSchema, 'BlockRuleList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, blockRuleList);
      const where = { ...scopeOf(req), AND: query.where } as Prisma.BlockRuleWhereInput;
      const [rows, total] = await Promise.all([
        db.blockRule.findMany({
          where,
          orderBy: query.orderBy as Prisma.BlockRuleOrderByWithRelationInput[],
          skip: query.skip,
          take: query.take,
        }),
        db.blockRule.count({ where }),
      ]);
      return { data: rows.map(toPublicBlockRule), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/block-rules/update',
      summary: 'Updates a block rule',
      tags,
      body: updateBlockRuleSchema,
      response: blockRuleSchema,
    },
    async ({ body, req }) => {
      const existing = await findBlockRule(db, scopeOf(req), body.id);
      const data = body.data;
      const type = data.type ?? (existing.type as BlockRuleType);
      // A new type re-checks the kept values, so a rule can never hold values its type cannot match.
      const value = data.value || data.type ? normalizedValues(type, data.value ?? existing.value) : undefined;
      const rule = await db.blockRule.update({
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
      return toPublicBlockRule(rule);
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/block-rules/:ruleId',
      summary: 'Retrieves a block rule',
      tags,
      params: blockRuleParams,
      response: blockRuleSchema,
    },
    async ({ params, req }) => toPublicBlockRule(await findBlockRule(db, scopeOf(req), params.ruleId)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'delete',
      path: '/block-rules/:ruleId',
      summary: 'Deletes a block rule',
      tags,
      params: blockRuleParams,
      response: z.object({ id: z.string(), deleted: z.literal(true) }),
    },
    async ({ params, req }) => {
      const existing = await findBlockRule(db, scopeOf(req), params.ruleId);
      await db.blockRule.delete({ where: { id: existing.id } });
      return { id: existing.id, deleted: true as const };
    },
  );
}
