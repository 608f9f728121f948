import { createHash } from 'node:crypto';
import type { Db, Prisma } from '../db/prisma';
import type { BuilderSession, Plugin, PluginDeployment } from '../generated/prisma/client';
import type { Scope } from '../commerce/scope';
import { newId, randomBase62 } from '../domain/ids';
import { DomainError, forbidden, notFound, orNotFound, unauthenticated } from '../errors';
import type { PluginManifest } from '../plugins/manifest';
import { replaceManifest } from '../plugins/plugins';

export const builderPermissions = ['read:source', 'write:deploy', 'read:manifest', 'write:manifest'] as const;
export type BuilderPermission = (typeof builderPermissions)[number];

/** Default and bounds of a session's lifetime: short-lived by design. */
export const builderSessionSeconds = { default: 900, min: 60, max: 3600 } as const;

const tokenPattern = /^bst_[0-9A-Za-z]{40}$/;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export type SourceFile = { path: string; content: string };

/**
 * Opens a builder session on a deployment of the caller's store: a random token (returned once,
 * stored as its SHA-256) carrying the permissions asked for, expiring after `expiresInSeconds`.
 */
export async function createBuilderSession(
  db: Db,
  scope: Scope,
  input: { deploymentId: string; storeId: string; permissions: BuilderPermission[]; expiresInSeconds?: number },
): Promise<{ session: BuilderSession; token: string }> {
  const deployment = await db.pluginDeployment.findFirst({
    where: { id: input.deploymentId, storeId: input.storeId, ...scope },
  });
  if (!deployment) throw notFound('Deployment');
  const token = `bst_${randomBase62(40)}`;
  const session = await db.builderSession.create({
    data: {
      id: newId('builderSession'),
      ...scope,
      storeId: deployment.storeId,
      pluginId: deployment.pluginId,
      deploymentId: deployment.id,
      permissions: [...new Set(input.permissions)],
      tokenHash: hashOf(token),
      expiresAt: new Date(Date.now() + (input.expiresInSeconds ?? builderSessionSeconds.default) * 1000),
    },
  });
  return { session, token };
}

/** The session a builder token names: unknown or malformed → unauthenticated; past its expiry → unauthenticated too. */
export async function authenticateBuilderToken(db: Db, token: string | undefined): Promise<BuilderSession> {
  if (!token || !tokenPattern.test(token)) throw unauthenticated('A builder session token (Bearer bst_…) is required');
  const session = await db.builderSession.findUnique({ where: { tokenHash: hashOf(token) } });
  if (!session) throw unauthenticated('Unknown builder session token');
  if (session.expiresAt.getTime() <= Date.now())
    throw new DomainError('unauthenticated', 'BUILDER_SESSION_EXPIRED', 'This builder session has expired');
  return session;
}

/** Refuses (forbidden) a session that was not granted `permission`. */
export function requirePermission(session: BuilderSession, permission: BuilderPermission): void {
  if (!session.permissions.includes(permission))
    throw forbidden(`This builder session lacks the ${permission} permission`, 'BUILDER_PERMISSION_REQUIRED');
}

async function deploymentOf(db: Db, session: BuilderSession): Promise<PluginDeployment & { plugin: Plugin }> {
  return orNotFound(
    await db.pluginDeployment.findUnique({
      where: { id: session.deploymentId },
      include: { plugin: true },
    }),
    'Deployment',
  );
}

export async function readSource(db: Db, session: BuilderSession) {
  const deployment = await deploymentOf(db, session);
  return { deployment, files: deployment.source as SourceFile[] };
}

/** Replaces the deployment's code and bumps its revision (one conditional-free update: last write wins). */
export async function deploySource(db: Db, session: BuilderSession, files: SourceFile[]) {
  const deployment = await db.pluginDeployment.update({
    where: { id: session.deploymentId },
    data: { source: files as unknown as Prisma.InputJsonValue, sourceRevision: { increment: 1 } },
    include: { plugin: true },
  });
  return { deployment, files };
}

export async function readManifest(db: Db, session: BuilderSession): Promise<Plugin> {
  return (await deploymentOf(db, session)).plugin;
}

export async function writeManifest(db: Db, session: BuilderSession, manifest: PluginManifest): Promise<Plugin> {
  return replaceManifest(db, session.pluginId, manifest);
}
