import { createDeployment, deploymentDetails, deploymentList, listDeployments } from '../../plugins/deployments';
import { forkInstance } from '../../plugins/fork';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import {
  createDeploymentSchema,
  deploymentDetailsRequestSchema,
  deploymentSchema,
  deploymentSummarySchema,
  forkRequestSchema,
  instanceSchema,
  toPublicDeployment,
  toPublicDeploymentSummary,
  toPublicInstance,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['plugins-v2'];

export function registerPluginV2Routes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/plugins/v2/deployments/create',
      summary: 'Deploys a plugin in its store with one or more live instances',
      description:
        'Each instance serves the routes of the plugin’s manifest and carries its own config. The deployment, ' +
        'its instances and their routes are written in one transaction. A plugin of another store is 404.',
      tags,
      body: createDeploymentSchema,
      example: {
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        pluginId: 'plg_9OlP2mKi5NjU8hBy3GvT',
        instances: [{ name: 'checkout-page', config: { theme: 'dark' } }],
      },
      response: deploymentSchema,
    },
    async ({ body, req }) => toPublicDeployment(await createDeployment(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/plugins/v2/deployments/list',
      summary: 'Lists deployments (filters: storeId, pluginId, createdAt)',
      description: "The account's plugin deployments with offset pagination and filters (store, plugin, date).",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(deploymentSummarySchema, 'PluginDeploymentList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, deploymentList);
      const { rows, total } = await listDeployments(db, scopeOf(req), query);
      return { data: rows.map(toPublicDeploymentSummary), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/plugins/v2/deployment/details',
      summary: 'Returns one deployment with its plugin, instances and routes',
      description: 'A deployment of another store, account or mode is 404.',
      tags,
      body: deploymentDetailsRequestSchema,
      example: { deploymentId: 'dep_4RfV7tGb2YhN5uJm8IkO', storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ' },
      response: deploymentSchema,
    },
    async ({ body, req }) =>
      toPublicDeployment(await deploymentDetails(db, scopeOf(req), body.deploymentId, body.storeId)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/plugins/v2/fork',
      summary: 'Forks a deployment instance for editing, as one atomic operation',
      description:
        'A new draft instance in the same deployment (forkedFromId = the source) with the source’s config and ' +
        'routes copied, all in one transaction: together or not at all. Each call is a new fork; send an ' +
        'Idempotency-Key to make a retry (or concurrent repeats) answer the first fork instead of making another.',
      tags,
      body: forkRequestSchema,
      example: { deploymentInstanceId: 'dpi_1QaZ4wSx7EdC2rFv5TgB', storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ' },
      response: instanceSchema,
    },
    async ({ body, req }) => toPublicInstance(await forkInstance(db, scopeOf(req), body)),
  );
}
