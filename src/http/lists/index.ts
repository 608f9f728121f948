export { buildListQuery, pageInfo, type ListDefinition, type ListQuery } from '../../db/listQuery';
export { listRequestSchema, listResponseSchema, maxPageSize, type ListRequest } from './validators';
