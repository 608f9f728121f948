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
