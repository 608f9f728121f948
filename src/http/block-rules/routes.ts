import { z } from 'zod';
import {
  blockRuleList,
  createBlockRule,
  deleteBlockRule,
  findBlockRule,
  listBlockRules,
  updateBlockRule,
} from '../../commerce/blockRules';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import {
  blockRuleParams,
  blockRuleSchema,
  createBlockRuleSchema,
  toPublicBlockRule,
  updateBlockRuleSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['block-rules'];

export function registerBlockRuleRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/block-rules',
      summary: 'Creates a block rule',
      description:
        'Creates a rule that blocks payments before any processor is called, on card BIN, card country, customer IP or e-mail. A blocked payment fails with blocked_by_rule.',
      tags,
      body: createBlockRuleSchema,
      example: {
        name: 'Blocked BINs',
        type: 'card_bin',
        value: ['40000000', '41111111'],
        operator: 'OR',
        ttlHours: 72,
      },
      response: blockRuleSchema,
    },
    async ({ body, req }) => toPublicBlockRule(await createBlockRule(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/block-rules/list',
      summary: 'Lists block rules (offset pagination, filters)',
      description: "The account's block rules with offset pagination and filters.",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(blockRuleSchema, 'BlockRuleList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, blockRuleList);
      const { rows, total } = await listBlockRules(db, scopeOf(req), query);
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
      description:
        "Changes a block rule's conditions or enables or disables it; payments from then on use the new rule.",
      tags,
      body: updateBlockRuleSchema,
      example: { id: 'br_6IkO9lPq4AzW7sXe2DcR', data: { enabled: false } },
      response: blockRuleSchema,
    },
    async ({ body, req }) => toPublicBlockRule(await updateBlockRule(db, scopeOf(req), body.id, body.data)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/block-rules/:ruleId',
      summary: 'Retrieves a block rule',
      description: 'One block rule and its conditions.',
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
      description: 'Removes a block rule; to stop it for a while, disable it instead.',
      tags,
      params: blockRuleParams,
      response: z.object({ id: z.string(), deleted: z.literal(true) }),
    },
    async ({ params, req }) => {
      const { id } = await deleteBlockRule(db, scopeOf(req), params.ruleId);
      return { id, deleted: true as const };
    },
  );
}
