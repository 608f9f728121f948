import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import { readPage, scopedPageArgs } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import type { PluginDeployment } from '../generated/prisma/client';
import type { Scope } from '../commerce/scope';
import { newId } from '../domain/ids';
import { orNotFound } from '../errors';
import type { PluginManifest } from './manifest';
import { findPlugin } from './plugins';

export const deploymentInclude = {
  plugin: true,
  instances: {
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { routes: { orderBy: [{ position: 'asc' }, { id: 'asc' }] } },
  },
} satisfies Prisma.PluginDeploymentInclude;

export type DeploymentDetails = Prisma.PluginDeploymentGetPayload<{ include: typeof deploymentInclude }>;

export const deploymentList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    storeId: { kind: 'id', prefix: 'store' },
    pluginId: { kind: 'id', prefix: 'plg' },
    createdAt: { kind: 'date' },
  },
};

export interface CreateDeploymentInput {
  storeId: string;
  pluginId: string;
  instances: { name: string; config?: Record<string, unknown> }[];
}

/**
 * Deploys a plugin in its store: the deployment and its live instances, each serving the routes of
 * the plugin's manifest, in one transaction. A plugin of another store answers not_found.
 */
export async function createDeployment(db: Db, scope: Scope, input: CreateDeploymentInput): Promise<DeploymentDetails> {
  const plugin = await findPlugin(db, scope, input.pluginId, input.storeId);
  const routes = (plugin.manifest as unknown as PluginManifest).routes ?? [];
  const deploymentId = newId('pluginDeployment');
  return db.$transaction(async (tx) => {
    await tx.pluginDeployment.create({
      data: { id: deploymentId, ...scope, storeId: plugin.storeId, pluginId: plugin.id },
    });
    for (const instance of input.instances) {
      const instanceId = newId('deploymentInstance');
      await tx.pluginDeploymentInstance.create({
        data: {
          id: instanceId,
          ...scope,
          storeId: plugin.storeId,
          deploymentId,
          name: instance.name,
          config: (instance.config ?? {}) as Prisma.InputJsonValue,
          status: 'live',
        },
      });
      await tx.pluginRoute.createMany({
        data: routes.map((route, position) => ({
          id: newId('pluginRoute'),
          instanceId,
          method: route.method,
          path: route.path,
          handler: route.handler ?? null,
          position,
        })),
      });
    }
    return tx.pluginDeployment.findUniqueOrThrow({ where: { id: deploymentId }, include: deploymentInclude });
  });
}

/** One deployment of the store with its plugin, instances and routes, or not_found. */
export async function deploymentDetails(
  db: Db,
  scope: Scope,
  deploymentId: string,
  storeId: string,
): Promise<DeploymentDetails> {
  return orNotFound(
    await db.pluginDeployment.findFirst({
      where: { id: deploymentId, storeId, ...scope },
      include: deploymentInclude,
    }),
    'Deployment',
  );
}

export async function listDeployments(db: Db, scope: Scope, query: ListQuery): Promise<Page<PluginDeployment>> {
  const args = scopedPageArgs<Prisma.PluginDeploymentFindManyArgs>(scope, query);
  return readPage(db.pluginDeployment.findMany(args), db.pluginDeployment.count({ where: args.where }));
}
