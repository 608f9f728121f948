import type { Config } from '../config';
import type { Db } from '../db/prisma';
import { newId } from '../domain/ids';
import { invalid } from '../errors';
import type { KeySource } from '../vault/keyring';
import type { Tenant } from '../events/tenant';
import { deliveryPolicy } from './delivery';
import { endpointChanges, type EndpointUpdate } from './endpointChanges';
import { assertStoreOfTenant, findEndpoint } from './lookup';
import { sealEndpointSecret } from './endpointSecrets';
import { newWebhookSecret } from './signing';
import { assertWebhookUrlAllowed, WebhookUrlError } from './urlGuard';

export interface EndpointDeps {
  db: Db;
  config: Pick<Config, 'WEBHOOK_ALLOW_INSECURE_URLS' | 'WEBHOOK_ALLOW_LOOPBACK'> & KeySource;
}

/** Scheme, form and resolved addresses of a URL under the mode's policy; invalid when refused. */
async function checkedUrl(config: EndpointDeps['config'], tenant: Tenant, url: string): Promise<string> {
  try {
    return (await assertWebhookUrlAllowed(url, deliveryPolicy(config, tenant.mode))).toString();
  } catch (error) {
    if (error instanceof WebhookUrlError) throw invalid(error.message, error.code);
    throw error;
  }
}

/** Registers an endpoint of one of the tenant's stores; the answer holds its new signing secret in clear. */
export async function createEndpoint(
  { db, config }: EndpointDeps,
  tenant: Tenant,
  input: { storeId: string; url: string; eventTypes: string[]; description?: string },
) {
  await assertStoreOfTenant(db, tenant, input.storeId);
  const url = await checkedUrl(config, tenant, input.url);
  const secret = newWebhookSecret();
  const id = newId('webhookEndpoint');
  const endpoint = await db.webhookEndpoint.create({
    data: {
      id,
      ...tenant,
      storeId: input.storeId,
      url,
      eventTypes: input.eventTypes,
      description: input.description ?? null,
      secret: sealEndpointSecret(secret, id, config),
    },
  });
  return { ...endpoint, secret };
}

/** The endpoints of one of the tenant's stores, oldest first. */
export async function listEndpoints(db: Db, tenant: Tenant, storeId: string) {
  await assertStoreOfTenant(db, tenant, storeId);
  return db.webhookEndpoint.findMany({
    where: { ...tenant, storeId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** Applies a merchant's update to one of the tenant's endpoints (a new URL is checked like a new endpoint's). */
export async function updateEndpoint(
  { db, config }: EndpointDeps,
  tenant: Tenant,
  endpointId: string,
  update: EndpointUpdate,
) {
  const existing = await findEndpoint(db, tenant, endpointId);
  const url = update.url === undefined ? undefined : await checkedUrl(config, tenant, update.url);
  return db.webhookEndpoint.update({
    where: { id: existing.id },
    data: endpointChanges(existing, { ...update, url }, new Date()),
  });
}

/** Deletes one of the tenant's endpoints; answers its id. */
export async function deleteEndpoint(db: Db, tenant: Tenant, endpointId: string): Promise<string> {
  const endpoint = await findEndpoint(db, tenant, endpointId);
  await db.webhookEndpoint.delete({ where: { id: endpoint.id } });
  return endpoint.id;
}

/** Issues a new signing secret; the old one keeps signing for `overlapSeconds` (0: not at all). */
export async function rotateEndpointSecret(
  { db, config }: EndpointDeps,
  tenant: Tenant,
  endpointId: string,
  overlapSeconds: number,
) {
  const existing = await findEndpoint(db, tenant, endpointId);
  const secret = newWebhookSecret();
  const expiresAt = overlapSeconds > 0 ? new Date(Date.now() + overlapSeconds * 1000) : null;
  await db.webhookEndpoint.update({
    where: { id: existing.id },
    data: {
      secret: sealEndpointSecret(secret, existing.id, config),
      previousSecret: expiresAt ? existing.secret : null,
      previousSecretExpiresAt: expiresAt,
    },
  });
  return { id: existing.id, secret, previousSecretExpiresAt: expiresAt };
}
