import { z } from 'zod';
import { builderPermissions, builderSessionSeconds } from '../../builder/sessions';
import { idOf } from '../../commerce/schemas';
import { manifestSchema } from '../../plugins/manifest';

export const createBuilderSessionSchema = z
  .object({
    deploymentId: idOf('dep'),
    storeId: idOf('store'),
    permissions: z.array(z.enum(builderPermissions)).min(1).max(builderPermissions.length),
    expiresInSeconds: z
      .number()
      .int()
      .min(builderSessionSeconds.min)
      .max(builderSessionSeconds.max)
      .optional()
      .openapi({ description: `Lifetime, default ${builderSessionSeconds.default} s` }),
  })
  .strict();

export const builderSessionSchema = z
  .object({
    id: z.string(),
    token: z.string().optional().openapi({
      description:
        'bst_…; shown once, only its hash is kept: a replay of this request (same Idempotency-Key) answers without it',
    }),
    expiresAt: z.string(),
    accountId: z.string(),
    pluginId: z.string(),
    deploymentId: z.string(),
    permissions: z.array(z.enum(builderPermissions)),
  })
  .openapi('BuilderSession');

const sourceFileSchema = z
  .object({
    path: z
      .string()
      .max(200)
      .regex(/^(?!\/)(?!.*\.\.)[A-Za-z0-9_\-./]+$/, 'a relative path without ..'),
    content: z.string().max(200_000),
  })
  .strict();

export const deploySourceSchema = z.object({ files: z.array(sourceFileSchema).min(1).max(200) }).strict();
export const writeManifestSchema = z.object({ manifest: manifestSchema }).strict();

export const sourceSchema = z
  .object({
    deploymentId: z.string(),
    pluginId: z.string(),
    revision: z.number().int().openapi({ description: 'Bumped by every deploy' }),
    files: z.array(z.object({ path: z.string(), content: z.string() })),
  })
  .openapi('BuilderSource');
