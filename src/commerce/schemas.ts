import { z } from 'zod';
import '../http/core/openapi';
import { supportedCurrencies } from '../domain/money';

/** zod pieces every commerce resource shares. */
export const currencySchema = z.enum(supportedCurrencies).openapi({ description: 'ISO 4217 code, upper case' });

export const idOf = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`), `must be a ${prefix}_ id`);

/** Path parameters `{name}` that must carry the id prefix of their kind. */
export function idParam<N extends string>(name: N, prefix: string) {
  return z.object({ [name]: idOf(prefix) } as Record<N, ReturnType<typeof idOf>>);
}

/** Update bodies follow the spec's `{id, data}` convention (POST /promotion-codes/update). */
export function updateBody<D extends z.ZodType>(prefix: string, data: D) {
  return z.object({ id: idOf(prefix), data }).strict();
}

export const iso = (date: Date) => date.toISOString();
