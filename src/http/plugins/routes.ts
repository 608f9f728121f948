import { createPlugin, findPlugin, listPlugins, pluginList } from '../../plugins/plugins';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import { createPluginSchema, exampleManifest, pluginParams, pluginSchema, toPublicPlugin } from './validators';

const basePath = '/api/public/v1';
const tags = ['plugins'];

/** Plugin records (plg_), whatever SDK they need: deployments and forks are under plugins-v2. */
export function registerPluginRoutes({ publicRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/plugins/create',
      summary: 'Registers a plugin of a store from its manifest',
      description:
        'The manifest is validated: requirements.sdkVersion v1 or v2; mode direct-mode (default: routes name ' +
        'the handler that serves them) or proxy-mode (requests go to upstreamUrl, https; routes name no handler); ' +
        'each (method, path) once. Deploy it with POST /plugins/v2/deployments/create.',
      tags,
      body: createPluginSchema,
      example: {
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        manifest: exampleManifest,
      },
      response: pluginSchema,
    },
    async ({ body, req }) => toPublicPlugin(await createPlugin(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/plugins/list',
      summary: 'Lists plugins (filters: storeId, name, sdkVersion, runMode, createdAt)',
      description: "The account's plugins with offset pagination and filters.",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(pluginSchema, 'PluginList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, pluginList);
      const { rows, total } = await listPlugins(db, scopeOf(req), query);
      return { data: rows.map(toPublicPlugin), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/plugins/:pluginId',
      summary: 'Retrieves a plugin',
      description: 'One plugin of the account.',
      tags,
      params: pluginParams,
      response: pluginSchema,
    },
    async ({ params, req }) => toPublicPlugin(await findPlugin(db, scopeOf(req), params.pluginId)),
  );
}
