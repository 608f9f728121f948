import { idPattern, type IdPrefix } from './ids';
import { invalid } from '../errors';

/** The largest page any list answers; bigger requests are refused (400), not silently clipped. */
export const maxPageSize = 100;
export const defaultPageSize = 20;

export const filterConditions = [
  'equals',
  'not-equals',
  'in',
  'contains',
  'starts-with',
  'greater-than',
  'less-than',
  'is-equal-date',
  'is-between-date',
  'is-after-date',
  'is-before-date',
] as const;
export type FilterCondition = (typeof filterConditions)[number];

type FilterScalar = string | number | boolean;
/** One filter: a value, an array of values (any of), or `{condition, value}`. */
export type FilterValue =
  | FilterScalar
  | FilterScalar[]
  | { condition: FilterCondition; value: FilterScalar | FilterScalar[] | { from: string; to: string } };

/** A `POST /<resource>/list` body as its validator parsed it (offset pagination, docs/commerce.md). */
export interface ListRequest {
  pagination?: { page: number; pageSize: number };
  sortBy?: { field: string; direction: 'asc' | 'desc' };
  filters?: Record<string, FilterValue>;
}

/**
 * What a resource allows in its lists; each service declares its own beside the query that uses it.
 * Keys are public names; `path` is the Prisma field path; `lowerCase` marks columns stored
 * lower-cased (e-mails), whose filter values are lower-cased too.
 */
export type FilterKind = 'string' | 'enum' | 'number' | 'boolean' | 'date' | 'id';
interface FilterBase {
  path?: string[];
  values?: readonly string[];
  lowerCase?: boolean;
}
/** Id filters name their prefix: a value without it is a 400, as for any id parameter. */
export type FilterDefinition =
  (FilterBase & { kind: Exclude<FilterKind, 'id'> }) | (FilterBase & { kind: 'id'; prefix: IdPrefix });
export interface ListDefinition {
  sortFields: Record<string, string>;
  defaultSort: { field: string; direction: 'asc' | 'desc' };
  filters: Record<string, FilterDefinition>;
}

export interface ListQuery {
  where: Record<string, unknown>[];
  orderBy: Record<string, 'asc' | 'desc'>[];
  skip: number;
  take: number;
  page: number;
  pageSize: number;
}

const conditionsByKind: Record<FilterKind, FilterCondition[]> = {
  string: ['equals', 'not-equals', 'in', 'contains', 'starts-with'],
  id: ['equals', 'not-equals', 'in'],
  enum: ['equals', 'not-equals', 'in'],
  number: ['equals', 'not-equals', 'in', 'greater-than', 'less-than'],
  boolean: ['equals'],
  date: ['is-equal-date', 'is-between-date', 'is-after-date', 'is-before-date'],
};

const dayMs = 86_400_000;

/**
 * Turns a list request into Prisma `where` clauses, a stable `orderBy` (the sort field, then id
 * in the same direction) and offset paging. Unknown sort fields, filters or conditions are
 * refused as invalid (INVALID_SORT_FIELD, INVALID_FILTER).
 */
export function buildListQuery(request: ListRequest, definition: ListDefinition): ListQuery {
  const page = request.pagination?.page ?? 1;
  const pageSize = request.pagination?.pageSize ?? defaultPageSize;
  const sortName = request.sortBy?.field ?? definition.defaultSort.field;
  const direction = request.sortBy?.direction ?? definition.defaultSort.direction;
  // Own keys only: inherited names such as "constructor" must be unknown, not Object.prototype members.
  const sortField = Object.hasOwn(definition.sortFields, sortName) ? definition.sortFields[sortName] : undefined;
  if (!sortField) {
    throw invalid(
      `Unknown sort field "${sortName}"; sortable fields: ${Object.keys(definition.sortFields).join(', ')}`,
      'INVALID_SORT_FIELD',
    );
  }
  const where = Object.entries(request.filters ?? {}).map(([name, value]) => filterClause(name, value, definition));
  const orderBy = sortField === 'id' ? [{ id: direction }] : [{ [sortField]: direction }, { id: direction }];
  return { where, orderBy, skip: (page - 1) * pageSize, take: pageSize, page, pageSize };
}

/** The `pagination` of a list answer. */
export function pageInfo(query: Pick<ListQuery, 'page' | 'pageSize'>, totalCount: number) {
  return { page: query.page, pageSize: query.pageSize, totalCount, totalPages: Math.ceil(totalCount / query.pageSize) };
}

function filterClause(name: string, raw: FilterValue, definition: ListDefinition): Record<string, unknown> {
  const filter = Object.hasOwn(definition.filters, name) ? definition.filters[name] : undefined;
  if (!filter)
    throw invalid(
      `Unknown filter "${name}"; filters: ${Object.keys(definition.filters).join(', ') || 'none'}`,
      'INVALID_FILTER',
    );
  const { condition, value } = normalise(raw, filter.kind);
  if (!conditionsByKind[filter.kind].includes(condition)) {
    throw invalid(
      `Filter "${name}" does not support "${condition}"; use one of ${conditionsByKind[filter.kind].join(', ')}`,
      'INVALID_FILTER',
    );
  }
  const predicate = predicateFor(name, filter, condition, value);
  return nest(filter.path ?? [name], predicate);
}

/**
 * Prisma sends `contains`/`startsWith` values into (I)LIKE as they are, so `%` and `_` would be
 * wildcards; a backslash (PostgreSQL's default LIKE escape) makes them, and itself, literal.
 */
export function escapeLikePattern(value: string): string {
  return value.replace(/[\\%_]/g, '\\$&');
}

function normalise(raw: FilterValue, kind: FilterKind): { condition: FilterCondition; value: unknown } {
  if (Array.isArray(raw)) return { condition: 'in', value: raw };
  if (typeof raw === 'object') return raw;
  return { condition: kind === 'date' ? 'is-equal-date' : 'equals', value: raw };
}

function predicateFor(name: string, filter: FilterDefinition, condition: FilterCondition, value: unknown): unknown {
  const { kind, values: allowed } = filter;
  const bad = (why: string) => invalid(`Filter "${name}": ${why}`, 'INVALID_FILTER');
  const scalarOf = (v: unknown) => {
    if (kind === 'number') {
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw bad('expects integers');
      return v;
    }
    if (kind === 'boolean') {
      if (typeof v !== 'boolean') throw bad('expects true or false');
      return v;
    }
    if (typeof v !== 'string') throw bad('expects strings');
    if (filter.kind === 'id' && !idPattern(filter.prefix).test(v)) throw bad(`"${v}" is not a ${filter.prefix}_ id`);
    if (allowed && !allowed.includes(v)) throw bad(`"${v}" is not one of ${allowed.join(', ')}`);
    return filter.lowerCase ? v.toLowerCase() : v;
  };
  const likeOf = (v: unknown) => escapeLikePattern(scalarOf(v) as string);
  switch (condition) {
    case 'equals':
      return scalarOf(value);
    case 'not-equals':
      return { not: scalarOf(value) };
    case 'in':
      return { in: (Array.isArray(value) ? value : [value]).map(scalarOf) };
    case 'contains':
      return { contains: likeOf(value), mode: 'insensitive' };
    case 'starts-with':
      return { startsWith: likeOf(value), mode: 'insensitive' };
    case 'greater-than':
      return { gt: scalarOf(value) };
    case 'less-than':
      return { lt: scalarOf(value) };
    case 'is-equal-date': {
      const day = dayStart(name, value);
      return { gte: day, lt: new Date(day.getTime() + dayMs) };
    }
    case 'is-after-date':
      return { gte: new Date(dayStart(name, value).getTime() + dayMs) };
    case 'is-before-date':
      return { lt: dayStart(name, value) };
    case 'is-between-date': {
      const [from, to] = Array.isArray(value)
        ? value
        : value && typeof value === 'object'
          ? [(value as { from: unknown }).from, (value as { to: unknown }).to]
          : [];
      if (from === undefined || to === undefined || (Array.isArray(value) && value.length !== 2))
        throw bad('is-between-date expects [from, to] or {from, to}');
      const start = dayStart(name, from);
      const end = new Date(dayStart(name, to).getTime() + dayMs);
      if (end <= start) throw bad('is-between-date: "to" is before "from"');
      return { gte: start, lt: end };
    }
  }
}

/** Date conditions compare whole UTC days; the value is a date (YYYY-MM-DD) or an ISO timestamp. */
function dayStart(name: string, value: unknown): Date {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(Date.parse(value))) {
    throw invalid(`Filter "${name}": expects a date (YYYY-MM-DD or ISO 8601)`, 'INVALID_FILTER');
  }
  const date = new Date(value);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function nest(path: string[], predicate: unknown): Record<string, unknown> {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), predicate) as Record<string, unknown>;
}

/** One page of a list and the count of every row its filters match. */
export interface Page<T> {
  rows: T[];
  total: number;
}
