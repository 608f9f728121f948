import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { idPattern, type IdPrefix } from '../domain/ids';
import { supportedCurrencies } from '../domain/money';

// `.openapi()` below needs zod extended before this module runs, whoever imports it first (a no-op when already done).
extendZodWithOpenApi(z);

/** zod pieces every resource shares. */
export const currencySchema = z.enum(supportedCurrencies).openapi({ description: 'ISO 4217 code, upper case' });

/**
 * The one id check, for path parameters, query parameters, body fields and list filters alike: an
 * id of ours is `<prefix>_` and 1–64 base62 characters. Anything else is a 400 before any lookup
 * (never a 404: a value without its prefix names nothing of ours). Several prefixes: any of them.
 */
export function idOf(...prefixes: [IdPrefix, ...IdPrefix[]]) {
  return z
    .string()
    .regex(idPattern(...prefixes), `must be a ${prefixes.map((prefix) => `${prefix}_`).join(' or ')} id`);
}

/** True for the pattern `idOf` checks: a field that names a resource (which may not exist: 404). */
export function isIdPattern(pattern: RegExp): boolean {
  return /^\^\(\?:[0-9A-Za-z|]+\)_\[0-9A-Za-z\]\{1,64\}\$$/.test(pattern.source);
}

/** Path parameters `{name}` that must carry the id prefix of their kind. */
export function idParam<N extends string>(name: N, prefix: IdPrefix) {
  return z.object({ [name]: idOf(prefix) } as Record<N, ReturnType<typeof idOf>>);
}

/** Update bodies follow one `{id, data}` convention (POST /promotion-codes/update). */
export function updateBody<D extends z.ZodType>(prefix: IdPrefix, data: D) {
  return z.object({ id: idOf(prefix), data }).strict();
}

export const iso = (date: Date) => date.toISOString();

/** A page the shopper's browser is sent to (successUrl, returnUrl …): http or https, at most 2048 characters. */
export const shopperUrlSchema = (name: string) =>
  z
    .url({ protocol: /^https?$/, error: `${name} must be an http or https URL` })
    .max(2048)
    .optional();
