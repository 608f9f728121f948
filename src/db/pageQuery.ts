import type { Page } from '../domain/listQuery';

/**
 * One page of a list, as src/http/lists builds it from a list request: Prisma `where` clauses
 * (ANDed with the caller's scope), a stable order and offset paging.
 */
export interface PageQuery {
  where: Record<string, unknown>[];
  orderBy: Record<string, 'asc' | 'desc'>[];
  skip: number;
  take: number;
}

/** The part of a model's FindManyArgs a page sets. */
interface Pageable {
  where?: unknown;
  orderBy?: unknown;
}

/** What `findMany` takes for one page of a model whose FindManyArgs are `Args`. */
export type PageArgs<Args extends Pageable> = Required<Pick<Args, 'where' | 'orderBy'>> & {
  skip: number;
  take: number;
};

/**
 * The `findMany` arguments of one page of a model: the caller's scope ANDed with the list's
 * filters, its order and window. The clauses were checked against the list's definition when the
 * request was parsed, hence the cast to the model's types.
 */
export function scopedPageArgs<Args extends Pageable>(scope: object, page: PageQuery): PageArgs<Args> {
  const { where, orderBy, skip, take } = page;
  return { where: { ...scope, AND: where }, orderBy, skip, take } as PageArgs<Args>;
}

/** A page numbered from 1 of at most `pageSize` rows. */
export interface NumberedPage {
  page: number;
  pageSize: number;
}

const newestFirst: Partial<Record<'createdAt' | 'id', 'desc'>>[] = [{ createdAt: 'desc' }, { id: 'desc' }];

/** The order (newest first, ties by id) and window of a numbered page, as `findMany` takes them. */
export function newestFirstPage(request: NumberedPage) {
  return { orderBy: newestFirst, skip: (request.page - 1) * request.pageSize, take: request.pageSize };
}

/** Reads one page of rows and the count of every row its filters match, side by side. */
export async function readPage<T>(rows: Promise<T[]>, total: Promise<number>): Promise<Page<T>> {
  const [pageRows, count] = await Promise.all([rows, total]);
  return { rows: pageRows, total: count };
}
