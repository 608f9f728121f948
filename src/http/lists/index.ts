export { buildListQuery, pageInfo, type ListDefinition, type ListQuery } from '../../domain/listQuery';
export { listRequestExample, listRequestSchema, listResponseSchema, maxPageSize, type ListRequest } from './validators';
