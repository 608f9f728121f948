import { z } from 'zod';
import { createFunnel, deleteFunnel, findFunnel, listFunnels, updateFunnel } from '../../funnels/funnels';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import type { Routers } from '../routes';
import {
  createFunnelSchema,
  funnelParams,
  funnelSchema,
  listFunnelsSchema,
  toPublicFunnel,
  updateFunnelSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['funnels'];

/** Funnels (CRM keys): create, list per store, read, update (`{id, data}`), delete. */
export function registerFunnelRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/funnels/create',
      summary: 'Creates a funnel: its steps and their accept/decline edges (one entry, every step reachable, no cycle)',
      description:
        'Creates a funnel of post-purchase offer steps, each leading to another on accept or decline. Start customers in it with funnel-sessions.',
      tags,
      body: createFunnelSchema,
      example: {
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        name: 'Coffee launch',
        steps: [
          { key: 'landing', type: 'landing', next: 'checkout' },
          { key: 'checkout', type: 'checkout', next: 'upsell' },
          {
            key: 'upsell',
            type: 'upsell',
            priceId: 'price_5JwK9pLm2XcV7bNq4RtY',
            onAccept: 'thanks',
            onDecline: 'downsell',
          },
          {
            key: 'downsell',
            type: 'downsell',
            priceId: 'price_8KpH2MzQ5rTx1LwN7cVb',
            onAccept: 'thanks',
            onDecline: 'thanks',
          },
          { key: 'thanks', type: 'thankyou' },
        ],
      },
      response: funnelSchema,
    },
    async ({ body, req }) => toPublicFunnel(await createFunnel(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/funnels/list',
      summary: 'Returns all funnels of a store (oldest first)',
      description: 'All funnels of a store, oldest first.',
      tags,
      body: listFunnelsSchema,
      example: { storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ' },
      response: z.object({ data: z.array(funnelSchema) }).openapi('FunnelList'),
    },
    async ({ body, req }) => ({ data: (await listFunnels(db, scopeOf(req), body.storeId)).map(toPublicFunnel) }),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/funnels/update',
      summary: 'Renames a funnel or replaces its steps (a step keeping its key keeps its id)',
      description: 'Renames a funnel or replaces its steps; sessions already running keep the steps they started with.',
      tags,
      body: updateFunnelSchema,
      example: { id: 'funnelv2_4IkO7lPq2AzW5sXe8DcR', data: { name: 'Coffee launch (winter)' } },
      response: funnelSchema,
    },
    async ({ body, req }) => toPublicFunnel(await updateFunnel(db, scopeOf(req), body.id, body.data)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/funnels/:funnelId',
      summary: 'Retrieves a funnel',
      description: 'One funnel with its steps and edges.',
      tags,
      params: funnelParams,
      response: funnelSchema,
    },
    async ({ params, req }) => toPublicFunnel(await findFunnel(db, scopeOf(req), params.funnelId)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'delete',
      path: '/funnels/:funnelId',
      summary: 'Deletes a funnel (sessions already running keep their steps)',
      description: 'Deletes a funnel; sessions already running finish with their steps.',
      tags,
      params: funnelParams,
      response: z.object({ id: z.string(), deleted: z.literal(true) }),
    },
    async ({ params, req }) => {
      await deleteFunnel(db, scopeOf(req), params.funnelId);
      return { id: params.funnelId, deleted: true as const };
    },
  );
}
