import type { Request } from 'express';
import {
  authenticateBuilderToken,
  createBuilderSession,
  deploySource,
  readManifest,
  readSource,
  requirePermission,
  writeManifest,
  type BuilderPermission,
} from '../../builder/sessions';
import type { BuilderSession } from '../../generated/prisma/client';
import type { Db } from '../../db/prisma';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { exampleManifest, pluginSchema, toPublicPlugin } from '../plugins/validators';
import type { Routers } from '../routes';
import {
  builderSessionSchema,
  createBuilderSessionSchema,
  deploySourceSchema,
  sourceSchema,
  writeManifestSchema,
} from './validators';

const basePath = '/api/public/v1';
const tags = ['builder'];

/** The builder session each request authenticated with (set by `authorize`, read by the handler). */
const sessions = new WeakMap<Request, BuilderSession>();

/** Authenticate (the bearer builder token: 401) → authorize (the permission: 403), before the body is read. */
function builderAccess(db: Db, permission: BuilderPermission) {
  return async ({ req }: { req: Request }) => {
    const header = req.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const session = await authenticateBuilderToken(db, token);
    requirePermission(session, permission);
    sessions.set(req, session);
  };
}

const sessionOf = (req: Request) => sessions.get(req)!;

const presentSource = (result: Awaited<ReturnType<typeof readSource>>) => ({
  deploymentId: result.deployment.id,
  pluginId: result.deployment.pluginId,
  revision: result.deployment.sourceRevision,
  files: result.files,
});

export function registerBuilderRoutes({ publicRouter, unauthenticatedRouter }: Routers, { db }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/builder/sessions',
      summary: 'Opens a short-lived builder session on a plugin deployment',
      description:
        'Permissions: read:source (GET /builder/source), write:deploy (POST /builder/deploy), read:manifest ' +
        '(GET /builder/manifest), write:manifest (PUT /builder/manifest). The token (bst_…) is random, shown once ' +
        'and stored hashed; it lives expiresInSeconds (60–3600, default 900). On the builder routes a missing, ' +
        'unknown or expired token is 401 (BUILDER_SESSION_EXPIRED when expired) and a permission not granted is ' +
        '403 BUILDER_PERMISSION_REQUIRED.',
      tags,
      body: createBuilderSessionSchema,
      example: {
        deploymentId: 'dep_4RfV7tGb2YhN5uJm8IkO',
        storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ',
        permissions: ['read:source', 'write:deploy'],
        expiresInSeconds: 3600,
      },
      response: builderSessionSchema,
      secretFields: ['token'],
    },
    async ({ body, req }) => {
      const { session, token } = await createBuilderSession(db, scopeOf(req), body);
      return {
        id: session.id,
        token,
        expiresAt: session.expiresAt.toISOString(),
        accountId: session.accountId,
        pluginId: session.pluginId,
        deploymentId: session.deploymentId,
        permissions: session.permissions as BuilderPermission[],
      };
    },
  );

  const common = { tags, security: 'builderToken' as const };
  defineRoute(
    unauthenticatedRouter,
    basePath,
    {
      ...common,
      method: 'get',
      path: '/builder/source',
      summary: 'Reads the deployment’s code (read:source)',
      description:
        'The code of the deployment this builder session is for. Takes a builder session token (bst_…) with read:source, not an API key.',
      authorize: builderAccess(db, 'read:source'),
      response: sourceSchema,
    },
    async ({ req }) => presentSource(await readSource(db, sessionOf(req))),
  );

  defineRoute(
    unauthenticatedRouter,
    basePath,
    {
      ...common,
      method: 'post',
      path: '/builder/deploy',
      summary: 'Replaces the deployment’s code and bumps its revision (write:deploy)',
      description:
        "Replaces the deployment's code and bumps its revision. Takes a builder session token (bst_…) with write:deploy, not an API key.",
      authorize: builderAccess(db, 'write:deploy'),
      body: deploySourceSchema,
      example: {
        files: [{ path: 'src/index.js', content: 'export default function handler() { return { ok: true }; }\n' }],
      },
      response: sourceSchema,
    },
    async ({ body, req }) => presentSource(await deploySource(db, sessionOf(req), body.files)),
  );

  defineRoute(
    unauthenticatedRouter,
    basePath,
    {
      ...common,
      method: 'get',
      path: '/builder/manifest',
      summary: 'Reads the plugin’s manifest (read:manifest)',
      description:
        "The manifest of the deployment's plugin. Takes a builder session token (bst_…) with read:manifest, not an API key.",
      authorize: builderAccess(db, 'read:manifest'),
      response: pluginSchema,
    },
    async ({ req }) => toPublicPlugin(await readManifest(db, sessionOf(req))),
  );

  defineRoute(
    unauthenticatedRouter,
    basePath,
    {
      ...common,
      method: 'put',
      path: '/builder/manifest',
      summary: 'Replaces the plugin’s manifest, validated as on create (write:manifest)',
      description: 'Instances already deployed keep their routes; new deployments take the new manifest’s routes.',
      authorize: builderAccess(db, 'write:manifest'),
      body: writeManifestSchema,
      example: {
        manifest: exampleManifest,
      },
      response: pluginSchema,
    },
    async ({ body, req }) => toPublicPlugin(await writeManifest(db, sessionOf(req), body.manifest)),
  );
}
