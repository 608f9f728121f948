import type { Db, Prisma } from '../db/prisma';
import type { Scope } from '../commerce/scope';
import { newId } from '../domain/ids';
import { notFound } from '../errors';

type Tx = Prisma.TransactionClient;

/** Points inside the fork's transaction where a test can make it fail (nothing else uses them). */
export interface ForkHooks {
  afterInstanceInsert?: (tx: Tx, instanceId: string) => Promise<void>;
}

export const forkInclude = {
  routes: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
} satisfies Prisma.PluginDeploymentInstanceInclude;

export type InstanceWithRoutes = Prisma.PluginDeploymentInstanceGetPayload<{ include: typeof forkInclude }>;

/**
 * Forks an instance for editing, as one atomic operation: a new draft instance in the same
 * deployment with the source's config copied and its routes copied, in one transaction, so the
 * three appear together or not at all. The source is read in the transaction under a share lock,
 * so a concurrent change of it cannot interleave with the copy.
 */
export async function forkInstance(
  db: Db,
  scope: Scope,
  input: { deploymentInstanceId: string; storeId: string },
  hooks: ForkHooks = {},
): Promise<InstanceWithRoutes> {
  return db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "plugin_deployment_instances"
       WHERE "id" = ${input.deploymentInstanceId} AND "store_id" = ${input.storeId}
         AND "account_id" = ${scope.accountId} AND "mode" = ${scope.mode}::"Mode"
       FOR SHARE`;
    if (locked.length === 0) throw notFound('Deployment instance');
    const source = await tx.pluginDeploymentInstance.findUniqueOrThrow({
      where: { id: input.deploymentInstanceId },
      include: forkInclude,
    });
    const id = newId('deploymentInstance');
    await tx.pluginDeploymentInstance.create({
      data: {
        id,
        ...scope,
        storeId: source.storeId,
        deploymentId: source.deploymentId,
        name: `${source.name} (fork)`,
        config: source.config as Prisma.InputJsonValue,
        status: 'draft',
        forkedFromId: source.id,
      },
    });
    await hooks.afterInstanceInsert?.(tx, id);
    await tx.pluginRoute.createMany({
      data: source.routes.map((route) => ({
        id: newId('pluginRoute'),
        instanceId: id,
        method: route.method,
        path: route.path,
        handler: route.handler,
        position: route.position,
      })),
    });
    return tx.pluginDeploymentInstance.findUniqueOrThrow({ where: { id }, include: forkInclude });
  });
}
