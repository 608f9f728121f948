import type { ListDefinition, ListQuery, Page } from '../domain/listQuery';
import { readPage, scopedPageArgs } from '../db/pageQuery';
import type { Db, Prisma } from '../db/prisma';
import type { Plugin } from '../generated/prisma/client';
import type { Scope } from '../commerce/scope';
import { findStore } from '../commerce/stores';
import { newId } from '../domain/ids';
import { orNotFound } from '../errors';
import { runModes, sdkVersions, type PluginManifest } from './manifest';

export const pluginList: ListDefinition = {
  sortFields: { createdAt: 'createdAt', name: 'name', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    storeId: { kind: 'id', prefix: 'store' },
    name: { kind: 'string' },
    sdkVersion: { kind: 'enum', values: sdkVersions },
    runMode: { kind: 'enum', values: runModes },
    createdAt: { kind: 'date' },
  },
};

/** The columns a manifest sets: what routing and listing read without parsing the JSON. */
function manifestColumns(manifest: PluginManifest) {
  return {
    name: manifest.name,
    version: manifest.version,
    sdkVersion: manifest.requirements.sdkVersion,
    runMode: manifest.mode,
    manifest: manifest as unknown as Prisma.InputJsonValue,
  };
}

export async function createPlugin(
  db: Db,
  scope: Scope,
  input: { storeId: string; manifest: PluginManifest },
): Promise<Plugin> {
  const store = await findStore(db, scope, input.storeId);
  return db.plugin.create({
    data: { id: newId('plugin'), ...scope, storeId: store.id, ...manifestColumns(input.manifest) },
  });
}

export async function listPlugins(db: Db, scope: Scope, query: ListQuery): Promise<Page<Plugin>> {
  const args = scopedPageArgs<Prisma.PluginFindManyArgs>(scope, query);
  return readPage(db.plugin.findMany(args), db.plugin.count({ where: args.where }));
}

/** A plugin of the caller's scope (and of `storeId` when given), or not_found. */
export async function findPlugin(db: Db, scope: Scope, pluginId: string, storeId?: string): Promise<Plugin> {
  return orNotFound(
    await db.plugin.findFirst({ where: { id: pluginId, ...scope, ...(storeId ? { storeId } : {}) } }),
    'Plugin',
  );
}

/** Replaces a plugin's manifest (the builder's write:manifest); deployed instances keep their routes. */
export async function replaceManifest(db: Db, pluginId: string, manifest: PluginManifest): Promise<Plugin> {
  return db.plugin.update({ where: { id: pluginId }, data: manifestColumns(manifest) });
}
