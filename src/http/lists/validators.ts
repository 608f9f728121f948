import { z } from 'zod';
import '../core/openapi';
import { defaultPageSize, filterConditions, maxPageSize } from '../../domain/listQuery';

export { maxPageSize };

const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** One filter: a value, an array of values (any of), or `{condition, value}`. */
export const filterValueSchema = z.union([
  scalar,
  z.array(scalar).min(1).max(100),
  z
    .object({
      condition: z.enum(filterConditions),
      value: z.union([
        scalar,
        z.array(scalar).min(1).max(100),
        z.object({ from: z.string(), to: z.string() }).strict(),
      ]),
    })
    .strict(),
]);
export type FilterValue = z.infer<typeof filterValueSchema>;

export const paginationSchema = z
  .object({
    page: z.number().int().min(1).default(1),
    pageSize: z.number().int().min(1).max(maxPageSize).default(defaultPageSize),
  })
  .strict();

/** `?page=&pageSize=` of a GET list: the same bounds as a list body's `pagination`. */
export const pageQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(maxPageSize).default(defaultPageSize),
  })
  .strict();
export type PageRequest = z.infer<typeof pageQuerySchema>;

export const sortBySchema = z
  .object({
    field: z.string().min(1),
    direction: z.enum(['asc', 'desc']).default('desc'),
  })
  .strict();

/**
 * zod's record silently drops a `__proto__` key (it would replace the result's prototype), which
 * would turn an unknown filter into no filter at all; it is refused here instead, before parsing.
 */
const filtersSchema = z.preprocess(
  (value, ctx) => {
    if (value !== null && typeof value === 'object' && Object.hasOwn(value, '__proto__')) {
      ctx.issues.push({ code: 'custom', message: 'unknown filter "__proto__"', input: value });
    }
    return value;
  },
  z.record(z.string(), filterValueSchema),
);

/** Body of every `POST /<resource>/list` (offset pagination, docs/commerce.md). */
export const listRequestSchema = z
  .object({
    pagination: paginationSchema.optional(),
    sortBy: sortBySchema.optional(),
    filters: filtersSchema.optional(),
  })
  .strict()
  .openapi('ListRequest');
export type ListRequest = z.infer<typeof listRequestSchema>;

/** Every list sorts and filters by `createdAt` (docs/commerce.md), so one example fits them all. */
export const listRequestExample = {
  pagination: { page: 1, pageSize: 20 },
  sortBy: { field: 'createdAt', direction: 'desc' },
  filters: { createdAt: { condition: 'is-after-date', value: '2026-01-01' } },
} satisfies z.input<typeof listRequestSchema>;

export const pageInfoSchema = z
  .object({
    page: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
  })
  .openapi('PageInfo');

/** `{data: T[], pagination}`: the shape every list answers with. */
export function listResponseSchema<T extends z.ZodType>(item: T, name: string) {
  return z.object({ data: z.array(item), pagination: pageInfoSchema }).openapi(name);
}
