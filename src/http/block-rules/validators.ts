import { z } from 'zod';
import type { BlockRule } from '../../generated/prisma/client';
import { idOf, idParam } from '../../commerce/schemas';
import { normalizeBlockRuleType } from '../../domain/blockRules';

/** `IP`/`ip`, `email`, `card_bin`/`BIN`/`bin`, `country` (any case) → the stored spelling. */
export const blockRuleTypeSchema = z
  .string()
  .transform((raw, ctx) => {
    const type = normalizeBlockRuleType(raw);
    if (!type) {
      ctx.addIssue({ code: 'custom', message: 'type must be one of IP, email, card_bin (BIN), country' });
      return z.NEVER;
    }
    return type;
  })
  .openapi({ type: 'string', description: 'ip | email | card_bin | country (also accepted: IP, BIN, bin)' });

const ruleFields = {
  name: z.string().trim().min(1).max(200),
  type: blockRuleTypeSchema,
  value: z.array(z.string().trim().min(1).max(320)).min(1).max(500).openapi({
    description: 'Patterns of the rule type, or `<type>:<pattern>` to combine signals (see docs/processors.md)',
  }),
  enabled: z.boolean(),
  operator: z.enum(['OR', 'AND']).openapi({ description: 'OR: any value matches; AND: every value must match' }),
  ttlHours: z
    .number()
    .int()
    .min(1)
    .max(8760)
    .openapi({ description: 'Hours from creation (or from the update that sets it) until the rule stops matching' }),
};

export const createBlockRuleSchema = z
  .object(ruleFields)
  .partial({ enabled: true, operator: true, ttlHours: true })
  .strict();
export type CreateBlockRuleInput = z.infer<typeof createBlockRuleSchema>;

/** `POST /block-rules/update`: `{id, data}`; `ttlHours: null` removes the expiry, a number restarts it from now. */
export const updateBlockRuleSchema = z
  .object({
    id: idOf('br'),
    data: z
      .object({ ...ruleFields, ttlHours: ruleFields.ttlHours.nullable() })
      .partial()
      .strict(),
  })
  .strict();

export const blockRuleParams = idParam('ruleId', 'br');

export const blockRuleSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    enabled: z.boolean(),
    type: z.string(),
    value: z.array(z.string()),
    createdAt: z.string(),
    operator: z.enum(['OR', 'AND']),
    ttlHours: z.number().int().nullable(),
    expiresAt: z.string().nullable(),
    updatedAt: z.string(),
    mode: z.enum(['test', 'live']),
  })
  .openapi('BlockRule');

export function toPublicBlockRule(row: BlockRule): z.input<typeof blockRuleSchema> {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    type: row.type,
    value: row.value,
    createdAt: row.createdAt.toISOString(),
    operator: row.operator === 'AND' ? 'AND' : 'OR',
    ttlHours: row.ttlHours,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
    mode: row.mode,
  };
}
