import { buildListQuery, escapeLikePattern, pageInfo, type ListDefinition } from '../../src/domain/listQuery';
import { toApiError } from '../../src/http/core/errors';
import { listRequestSchema, maxPageSize } from '../../src/http/lists/validators';

const definition: ListDefinition = {
  sortFields: { createdAt: 'createdAt', total: 'totalAmount', id: 'id' },
  defaultSort: { field: 'createdAt', direction: 'desc' },
  filters: {
    status: { kind: 'enum', values: ['paid', 'refunded'] },
    email: { kind: 'string', path: ['customer', 'email'] },
    total: { kind: 'number', path: ['totalAmount'] },
    active: { kind: 'boolean' },
    createdAt: { kind: 'date' },
  },
};

function statusOf(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    return toApiError(error).status;
  }
  return undefined;
}

describe('the shared list implementation', () => {
  it('pages with offsets and sorts stably with an id tiebreak in the same direction', () => {
    const query = buildListQuery(
      { pagination: { page: 3, pageSize: 10 }, sortBy: { field: 'total', direction: 'asc' } },
      definition,
    );
    expect(query).toMatchObject({ skip: 20, take: 10, orderBy: [{ totalAmount: 'asc' }, { id: 'asc' }] });
    expect(buildListQuery({}, definition)).toMatchObject({
      skip: 0,
      take: 20,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
    expect(pageInfo(query, 45)).toEqual({ page: 3, pageSize: 10, totalCount: 45, totalPages: 5 });
  });

  it(`caps pageSize at ${maxPageSize} (a bigger one is a validation error)`, () => {
    expect(listRequestSchema.safeParse({ pagination: { page: 1, pageSize: maxPageSize } }).success).toBe(true);
    expect(listRequestSchema.safeParse({ pagination: { page: 1, pageSize: maxPageSize + 1 } }).success).toBe(false);
    expect(listRequestSchema.safeParse({ pagination: { page: 0, pageSize: 10 } }).success).toBe(false);
  });

  it('answers 400 for an unknown sort field, unknown filter, or a condition the field does not support', () => {
    expect(statusOf(() => buildListQuery({ sortBy: { field: 'password', direction: 'asc' } }, definition))).toBe(400);
    expect(statusOf(() => buildListQuery({ filters: { nope: 'x' } }, definition))).toBe(400);
    expect(
      statusOf(() => buildListQuery({ filters: { total: { condition: 'contains', value: '1' } } }, definition)),
    ).toBe(400);
    expect(statusOf(() => buildListQuery({ filters: { status: 'weird' } }, definition))).toBe(400);
    expect(statusOf(() => buildListQuery({ filters: { createdAt: 'yesterday' } }, definition))).toBe(400);
    expect(statusOf(() => buildListQuery({ filters: { total: '12' } }, definition))).toBe(400);
  });

  it('treats names inherited from Object.prototype as unknown (400 with the error body, never a 500)', () => {
    const errorOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        const answer = toApiError(error);
        return { status: answer.status, body: answer.body() };
      }
      return undefined;
    };
    for (const name of ['constructor', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__', 'isPrototypeOf']) {
      expect(errorOf(() => buildListQuery({ filters: { [name]: 'x' } }, definition))).toEqual({
        status: 400,
        body: { code: 'INVALID_FILTER', message: expect.stringContaining(name) },
      });
      expect(
        errorOf(() => buildListQuery({ filters: { [name]: { condition: 'equals', value: 'x' } } }, definition)),
      ).toMatchObject({ status: 400 });
      expect(errorOf(() => buildListQuery({ sortBy: { field: name, direction: 'asc' } }, definition))).toEqual({
        status: 400,
        body: { code: 'INVALID_SORT_FIELD', message: expect.stringContaining(name) },
      });
    }
    // zod drops a "__proto__" key from records; the schema refuses it rather than ignoring the filter.
    expect(listRequestSchema.safeParse(JSON.parse('{"filters":{"__proto__":"x"}}')).success).toBe(false);
    expect(
      listRequestSchema.safeParse(JSON.parse('{"filters":{"__proto__":{"condition":"equals","value":"x"}}}')).success,
    ).toBe(false);
    expect(
      errorOf(() => buildListQuery({ sortBy: { field: '__proto__', direction: 'asc' } }, definition)),
    ).toMatchObject({ status: 400 });
  });

  it('turns arrays into "in", {condition, value} into predicates, and nests relation paths', () => {
    const query = buildListQuery(
      {
        filters: {
          status: ['paid', 'refunded'],
          email: { condition: 'contains', value: '@example' },
          total: { condition: 'greater-than', value: 100 },
          active: true,
        },
      },
      definition,
    );
    expect(query.where).toEqual([
      { status: { in: ['paid', 'refunded'] } },
      { customer: { email: { contains: '@example', mode: 'insensitive' } } },
      { totalAmount: { gt: 100 } },
      { active: true },
    ]);
  });

  it('escapes LIKE wildcards in contains and starts-with, and lower-cases values of lower-cased columns', () => {
    expect(escapeLikePattern('50%_off\\now')).toBe('50\\%\\_off\\\\now');
    const lowered: ListDefinition = {
      ...definition,
      filters: { email: { kind: 'string', lowerCase: true }, name: { kind: 'string' } },
    };
    const where = (filters: Record<string, unknown>) => buildListQuery({ filters: filters as never }, lowered).where;
    expect(where({ name: { condition: 'contains', value: '100%' } })).toEqual([
      { name: { contains: '100\\%', mode: 'insensitive' } },
    ]);
    expect(where({ name: { condition: 'starts-with', value: 'a_b' } })).toEqual([
      { name: { startsWith: 'a\\_b', mode: 'insensitive' } },
    ]);
    expect(where({ name: 'Mixed' })).toEqual([{ name: 'Mixed' }]);
    expect(where({ email: 'Ada@Example.COM' })).toEqual([{ email: 'ada@example.com' }]);
    expect(where({ email: ['A@X.io', 'b@x.io'] })).toEqual([{ email: { in: ['a@x.io', 'b@x.io'] } }]);
    expect(where({ email: { condition: 'starts-with', value: 'ADA_' } })).toEqual([
      { email: { startsWith: 'ada\\_', mode: 'insensitive' } },
    ]);
  });

  it('compares whole UTC days for the date conditions', () => {
    const where = (value: unknown) => buildListQuery({ filters: { createdAt: value as never } }, definition).where[0];
    expect(where({ condition: 'is-equal-date', value: '2026-11-22' })).toEqual({
      createdAt: { gte: new Date('2026-11-22T00:00:00Z'), lt: new Date('2026-11-23T00:00:00Z') },
    });
    expect(where({ condition: 'is-between-date', value: ['2026-11-01', '2026-11-30'] })).toEqual({
      createdAt: { gte: new Date('2026-11-01T00:00:00Z'), lt: new Date('2026-12-01T00:00:00Z') },
    });
    expect(where({ condition: 'is-between-date', value: { from: '2026-11-01', to: '2026-11-01' } })).toEqual({
      createdAt: { gte: new Date('2026-11-01T00:00:00Z'), lt: new Date('2026-11-02T00:00:00Z') },
    });
    expect(where({ condition: 'is-after-date', value: '2026-11-22T15:00:00Z' })).toEqual({
      createdAt: { gte: new Date('2026-11-23T00:00:00Z') },
    });
    expect(where({ condition: 'is-before-date', value: '2026-11-22' })).toEqual({
      createdAt: { lt: new Date('2026-11-22T00:00:00Z') },
    });
    expect(statusOf(() => where({ condition: 'is-between-date', value: ['2026-11-30', '2026-11-01'] }))).toBe(400);
    expect(statusOf(() => where({ condition: 'contains', value: '2026' }))).toBe(400);
  });
});
