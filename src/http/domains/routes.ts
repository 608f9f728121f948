import {
  createDomain,
  deleteDomain,
  domainList,
  findDomain,
  listDomains,
  verifyDomain,
} from '../../customDomains/domains';
import { scopeOf } from '../auth/scope';
import type { AppDeps } from '../core/context';
import { defineRoute } from '../core/route';
import { buildListQuery, listRequestExample, listRequestSchema, listResponseSchema, pageInfo } from '../lists';
import type { Routers } from '../routes';
import { createDomainSchema, domainParams, domainSchema, toPublicDomain } from './validators';

const basePath = '/api/public/v1';
const tags = ['domains'];

export function registerDomainRoutes({ publicRouter }: Routers, { db, dnsTxt }: AppDeps): void {
  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/domains',
      summary: 'Registers a custom domain for a store (status pending)',
      description:
        'Answers the TXT record to publish (name _payengine-verify.<hostname>, value payengine-verify=<token>). ' +
        'One store per hostname and mode, across all accounts (a database rule): a hostname already registered, ' +
        'in any status, is 409 DOMAIN_TAKEN until its registration is deleted.',
      tags,
      body: createDomainSchema,
      example: { storeId: 'store_8fK2mQ9xLr4TnB7vW1cZ', hostname: 'shop.example.com' },
      response: domainSchema,
      errors: [409],
    },
    async ({ body, req }) => toPublicDomain(await createDomain(db, scopeOf(req), body)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/domains/list',
      summary: 'Lists custom domains (filters: storeId, hostname, status, createdAt)',
      description: "The account's custom domains with offset pagination and filters (store, hostname, status, date).",
      tags,
      body: listRequestSchema,
      example: listRequestExample,
      response: listResponseSchema(domainSchema, 'CustomDomainList'),
    },
    async ({ body, req }) => {
      const query = buildListQuery(body, domainList);
      const { rows, total } = await listDomains(db, scopeOf(req), query);
      return { data: rows.map(toPublicDomain), pagination: pageInfo(query, total) };
    },
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'get',
      path: '/domains/:id',
      summary: 'Retrieves a custom domain',
      description: 'One custom domain with its verification status.',
      tags,
      params: domainParams,
      response: domainSchema,
    },
    async ({ params, req }) => toPublicDomain(await findDomain(db, scopeOf(req), params.id)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'post',
      path: '/domains/:id/verify',
      summary: 'Checks the domain’s DNS TXT record now (no body)',
      description:
        'Record found with the token: verified. Absent or another value: failed, with lastError (a verified domain ' +
        'whose record is gone fails too; publish it and verify again). A DNS server that does not answer: 503 ' +
        'DNS_LOOKUP_FAILED and the status is unchanged.',
      tags,
      params: domainParams,
      response: domainSchema,
      errors: [503],
    },
    async ({ params, req }) => toPublicDomain(await verifyDomain(db, scopeOf(req), params.id, dnsTxt)),
  );

  defineRoute(
    publicRouter,
    basePath,
    {
      method: 'delete',
      path: '/domains/:id',
      summary: 'Deletes a custom domain registration, releasing the hostname',
      description: 'Removes a custom domain so the hostname can be registered again.',
      tags,
      params: domainParams,
      response: domainSchema,
    },
    async ({ params, req }) => toPublicDomain(await deleteDomain(db, scopeOf(req), params.id)),
  );
}
