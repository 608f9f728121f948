import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export const sdkVersions = ['v1', 'v2'] as const;
export const runModes = ['direct-mode', 'proxy-mode'] as const;
export const routeMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const routeSchema = z
  .object({
    method: z.enum(routeMethods),
    path: z
      .string()
      .max(200)
      .regex(/^\/[A-Za-z0-9_\-/:.]*$/, 'a path starting with / (letters, digits, _ - / : .)'),
    handler: z
      .string()
      .regex(/^[A-Za-z_$][A-Za-z0-9_$]{0,99}$/, 'an exported function name')
      .optional()
      .openapi({ description: 'direct-mode: the exported function that serves the route; proxy-mode: none' }),
  })
  .strict();

/**
 * A plugin manifest. `requirements.sdkVersion` is v1 or v2; `mode` is direct-mode (the default:
 * the engine runs the plugin's handlers) or proxy-mode (requests are forwarded to `upstreamUrl`,
 * an https URL, and routes name no handler). Each (method, path) is declared once.
 */
export const manifestSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    version: z.string().regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, 'a semantic version such as 1.2.0'),
    requirements: z.object({ sdkVersion: z.enum(sdkVersions) }).strict(),
    mode: z.enum(runModes).default('direct-mode'),
    upstreamUrl: z
      .string()
      .url()
      .regex(/^https:\/\//, 'an https URL')
      .optional()
      .openapi({ description: 'proxy-mode only (required there)' }),
    routes: z.array(routeSchema).max(100).default([]),
  })
  .strict()
  .superRefine((manifest, ctx) => {
    if (manifest.mode === 'proxy-mode' && !manifest.upstreamUrl)
      ctx.addIssue({ code: 'custom', path: ['upstreamUrl'], message: 'required in proxy-mode' });
    if (manifest.mode === 'direct-mode' && manifest.upstreamUrl)
      ctx.addIssue({ code: 'custom', path: ['upstreamUrl'], message: 'only in proxy-mode' });
    const seen = new Set<string>();
    manifest.routes.forEach((route, index) => {
      const key = `${route.method} ${route.path}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['routes', index], message: `${key} declared twice` });
      seen.add(key);
      if (manifest.mode === 'direct-mode' && !route.handler)
        ctx.addIssue({ code: 'custom', path: ['routes', index, 'handler'], message: 'required in direct-mode' });
      if (manifest.mode === 'proxy-mode' && route.handler)
        ctx.addIssue({
          code: 'custom',
          path: ['routes', index, 'handler'],
          message: 'proxy-mode routes name no handler',
        });
    });
  })
  .openapi('PluginManifest');

export type PluginManifest = z.infer<typeof manifestSchema>;
