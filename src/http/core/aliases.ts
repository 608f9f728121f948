import { z } from 'zod';
import { idOf } from '../../commerce/schemas';
import './openapi';

/**
 * One concept, two names in /openapi.json: a stored card is `paymentInstrumentId` on payments and
 * `paymentMethodId` on subscriptions, memberships and the portal, and `payments/process` took
 * `mode` for what is its `intent`. Both names stay; each body accepts the other on input.
 */
export const cardNames = { payments: 'paymentInstrumentId', billing: 'paymentMethodId' } as const;

/** The other spelling of a card field, documented as such. */
export function cardAliasField(name: string, alias: string) {
  return idOf('pi')
    .optional()
    .openapi({
      description: `Alias of ${name}: the same stored card (pi_), under the name the ${
        alias === cardNames.payments ? 'payments' : 'subscriptions, memberships and portal'
      } API uses. Send either; both with different values is 400 VALIDATION_ERROR`,
    });
}

/**
 * Refines a body that takes `alias` as another spelling of `name`: both with different values is
 * an issue on `alias` (so a 400 VALIDATION_ERROR); `required` makes one of them required.
 */
export function checkAlias(
  body: Record<string, unknown>,
  ctx: z.RefinementCtx,
  name: string,
  alias: string,
  required: boolean,
): void {
  const value = body[name];
  const other = body[alias];
  if (value !== undefined && other !== undefined && value !== other)
    ctx.addIssue({
      code: 'custom',
      path: [alias],
      message: `${alias} is another name for ${name} and names a different value here: send one of them, or the same value in both`,
    });
  if (required && value === undefined && other === undefined)
    ctx.addIssue({ code: 'custom', path: [name], message: `${name} (or its alias ${alias}) is required` });
}
