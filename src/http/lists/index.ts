export { buildListQuery, pageInfo, type ListDefinition, type ListQuery } from '../../db/listQuery';
export { listRequestExample, listRequestSchema, listResponseSchema, maxPageSize, type ListRequest } from './validators';
