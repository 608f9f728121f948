import { z } from 'zod';
import { idOf } from '../../commerce/schemas';
import type { PluginDeployment } from '../../generated/prisma/client';
import type { DeploymentDetails } from '../../plugins/deployments';
import type { InstanceWithRoutes } from '../../plugins/fork';
import { pluginSchema, toPublicPlugin } from '../plugins/validators';

const configSchema = z
  .record(z.string(), z.unknown())
  .openapi({ description: 'The instance’s settings, free-form JSON (copied as is by a fork)' });

export const createDeploymentSchema = z
  .object({
    storeId: idOf('store'),
    pluginId: idOf('plg'),
    instances: z
      .array(z.object({ name: z.string().trim().min(1).max(100), config: configSchema.optional() }).strict())
      .min(1)
      .max(20),
  })
  .strict();

export const deploymentDetailsRequestSchema = z.object({ deploymentId: idOf('dep'), storeId: idOf('store') }).strict();
export const forkRequestSchema = z.object({ deploymentInstanceId: idOf('dpi'), storeId: idOf('store') }).strict();

const routeSchema = z.object({
  id: z.string(),
  method: z.string(),
  path: z.string(),
  handler: z.string().nullable(),
});

export const instanceSchema = z
  .object({
    id: z.string(),
    deploymentId: z.string(),
    storeId: z.string(),
    name: z.string(),
    status: z.enum(['live', 'draft']).openapi({ description: 'draft: a fork being edited' }),
    forkedFromId: z.string().nullable(),
    config: z.record(z.string(), z.unknown()),
    routes: z.array(routeSchema),
    createdAt: z.string(),
  })
  .openapi('PluginDeploymentInstance');

export const deploymentSummarySchema = z
  .object({
    id: z.string(),
    storeId: z.string(),
    pluginId: z.string(),
    mode: z.enum(['test', 'live']),
    createdAt: z.string(),
  })
  .openapi('PluginDeploymentSummary');

export const deploymentSchema = deploymentSummarySchema
  .extend({ plugin: pluginSchema, instances: z.array(instanceSchema) })
  .openapi('PluginDeployment');

export function toPublicInstance(instance: InstanceWithRoutes): z.input<typeof instanceSchema> {
  return {
    id: instance.id,
    deploymentId: instance.deploymentId,
    storeId: instance.storeId,
    name: instance.name,
    status: instance.status as 'live' | 'draft',
    forkedFromId: instance.forkedFromId,
    config: instance.config as Record<string, unknown>,
    routes: instance.routes.map(({ id, method, path, handler }) => ({ id, method, path, handler })),
    createdAt: instance.createdAt.toISOString(),
  };
}

export function toPublicDeploymentSummary(deployment: PluginDeployment): z.input<typeof deploymentSummarySchema> {
  const { id, storeId, pluginId, mode, createdAt } = deployment;
  return { id, storeId, pluginId, mode, createdAt: createdAt.toISOString() };
}

export function toPublicDeployment(deployment: DeploymentDetails): z.input<typeof deploymentSchema> {
  return {
    ...toPublicDeploymentSummary(deployment),
    plugin: toPublicPlugin(deployment.plugin),
    instances: deployment.instances.map(toPublicInstance),
  };
}
