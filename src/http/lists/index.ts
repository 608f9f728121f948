export { buildListQuery, pageInfo, type ListDefinition, type ListQuery } from './listQuery';
export { listRequestSchema, listResponseSchema, maxPageSize, type ListRequest } from './validators';
