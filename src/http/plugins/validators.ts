import { z } from 'zod';
import { idOf, idParam } from '../../commerce/schemas';
import type { Plugin } from '../../generated/prisma/client';
import { manifestSchema, runModes, sdkVersions } from '../../plugins/manifest';

/** A manifest as a first plugin would send it: the OpenAPI example of creating a plugin and of replacing its manifest. */
export const exampleManifest = {
  name: 'loyalty-widget',
  version: '1.2.0',
  requirements: { sdkVersion: 'v2' },
  mode: 'direct-mode',
  routes: [{ method: 'GET', path: '/points/:customerId', handler: 'getPoints' }],
} satisfies z.input<typeof manifestSchema>;

export const createPluginSchema = z.object({ storeId: idOf('store'), manifest: manifestSchema }).strict();

export const pluginSchema = z
  .object({
    id: z.string(),
    storeId: z.string(),
    name: z.string(),
    version: z.string(),
    sdkVersion: z.enum(sdkVersions).openapi({ description: 'manifest.requirements.sdkVersion' }),
    runMode: z.enum(runModes).openapi({ description: 'manifest.mode (direct-mode when the manifest omits it)' }),
    manifest: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'The manifest as validated, defaults filled in' }),
    mode: z.enum(['test', 'live']).openapi({ description: 'The key mode the plugin belongs to' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Plugin');

export const pluginParams = idParam('pluginId', 'plg');

export function toPublicPlugin(plugin: Plugin): z.input<typeof pluginSchema> {
  return {
    id: plugin.id,
    storeId: plugin.storeId,
    name: plugin.name,
    version: plugin.version,
    sdkVersion: plugin.sdkVersion as (typeof sdkVersions)[number],
    runMode: plugin.runMode as (typeof runModes)[number],
    manifest: plugin.manifest as Record<string, unknown>,
    mode: plugin.mode,
    createdAt: plugin.createdAt.toISOString(),
    updatedAt: plugin.updatedAt.toISOString(),
  };
}
