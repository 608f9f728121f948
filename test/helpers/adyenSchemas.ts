import { createRequire } from 'node:module';
import path from 'node:path';
import { readVendorDocument } from './vendorDocs';

/**
 * Checks what goes to and comes from "Adyen" against Adyen's own OpenAPI 3.1 documents
 * (CheckoutService-v71.json, Webhooks-v1.json): request bodies, response bodies by status, and
 * webhook payloads by event code. JSON Schema 2020-12 needs ajv 8, which the project has only as
 * the dependency of @seriousme/openapi-schema-validator (an ES module jest cannot load): it is
 * resolved from there. `format` keywords Adyen uses are checked (byte = base64, date-time, date).
 */
interface ValidateFunction {
  (data: unknown): boolean;
  errors?: { instancePath: string; message?: string; params?: unknown }[] | null;
}
interface Ajv {
  addSchema(schema: object, key: string): void;
  addFormat(name: string, format: RegExp | { type: 'number'; validate: (value: number) => boolean }): void;
  getSchema(ref: string): ValidateFunction | undefined;
}

const load = createRequire(__filename);
const validatorDir = path.dirname(load.resolve('@seriousme/openapi-schema-validator/package.json'));
const Ajv2020 = (load(load.resolve('ajv/dist/2020', { paths: [validatorDir] })) as { default: new (o: object) => Ajv })
  .default;

const checkout = readVendorDocument('adyen/CheckoutService-v71.json');
const webhooks = readVendorDocument('adyen/Webhooks-v1.json');

const ajv = new Ajv2020({ strict: false, allErrors: true });
for (const name of ['int32', 'int64']) ajv.addFormat(name, { type: 'number', validate: Number.isInteger });
ajv.addFormat('double', { type: 'number', validate: Number.isFinite });
ajv.addFormat('byte', /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/);
ajv.addSchema(checkout, 'checkout');
ajv.addSchema(webhooks, 'webhooks');

function validate(ref: string, data: unknown): string[] {
  const check = ajv.getSchema(ref);
  if (!check) throw new Error(`no schema ${ref}`);
  if (check(data)) return [];
  return (check.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** The Checkout operation a request path names, e.g. /v71/payments/ABC/captures → /payments/{paymentPspReference}/captures. */
function checkoutOperation(urlPath: string): { template: string; operation: Record<string, any> } {
  const apiPath = urlPath.split('?')[0]!.replace(/^(?:\/checkout)?\/v71/, '');
  for (const [template, item] of Object.entries(checkout.paths as Record<string, any>)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(apiPath) && item.post) return { template, operation: item.post };
  }
  throw new Error(`no Checkout API v71 operation for POST ${urlPath}`);
}

function schemaRef(schema: { $ref?: string } | undefined, where: string): string {
  if (!schema?.$ref) throw new Error(`${where} has no schema reference`);
  return `checkout${schema.$ref}`;
}

/** Errors of a request body against its operation's request schema (none: Adyen would accept it). */
export function checkoutRequestErrors(urlPath: string, body: unknown): string[] {
  const { template, operation } = checkoutOperation(urlPath);
  return validate(schemaRef(operation.requestBody?.content?.['application/json']?.schema, template), body);
}

/** Errors of a response body against the schema the document gives for that status. */
export function checkoutResponseErrors(urlPath: string, status: number, body: unknown): string[] {
  const { template, operation } = checkoutOperation(urlPath);
  const response = operation.responses?.[String(status)];
  if (!response) return [`${template} documents no HTTP ${status} answer`];
  return validate(schemaRef(response.content?.['application/json']?.schema, `${template} ${status}`), body);
}

/** Errors of a webhook payload: each item against the schema of its event code's webhook. */
export function webhookErrors(payload: unknown): string[] {
  const items = (payload as { notificationItems?: unknown[] } | undefined)?.notificationItems;
  if (!Array.isArray(items) || items.length === 0) return ['no notificationItems'];
  return items.flatMap((wrapper, index) => {
    const item = (wrapper as { NotificationRequestItem?: { eventCode?: unknown } } | undefined)
      ?.NotificationRequestItem;
    if (!item) return [`item ${index} is not wrapped in NotificationRequestItem`];
    const hook = (webhooks.webhooks as Record<string, any>)[`/${String(item.eventCode)}`];
    const ref = hook?.post?.requestBody?.content?.['application/json']?.schema?.$ref as string | undefined;
    if (!ref) return [`item ${index}: no webhook documented for eventCode ${String(item.eventCode)}`];
    const single = { ...(payload as object), notificationItems: [wrapper] };
    return validate(`webhooks${ref}`, single).map((error) => `item ${index} (${String(item.eventCode)}): ${error}`);
  });
}
