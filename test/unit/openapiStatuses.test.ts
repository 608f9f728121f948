import express from 'express';
import { z } from 'zod';
import { idOf } from '../../src/commerce/schemas';
import { createLogger } from '../../src/logging/logger';
import { derivedErrorStatuses, findOperation, namesResource } from '../../src/http/core/operations';
import { checkResponseContract, takeContractViolations } from '../../src/http/core/responseContract';
import { defineRoute } from '../../src/http/core/route';

const traits = {
  method: 'get' as const,
  security: 'none' as const,
  adminOnly: false,
  hasBody: false,
  hasPathParams: false,
  namesResourceInInput: false,
  idempotencyKeys: false,
};

describe('statuses derived from a route declaration', () => {
  it('adds what auth, path params, resource ids, a JSON body and idempotency keys can answer', () => {
    expect(derivedErrorStatuses(traits).sort()).toEqual([400, 413, 500]);
    expect(derivedErrorStatuses({ ...traits, security: 'bearer' })).toEqual(expect.arrayContaining([401, 403, 429]));
    expect(derivedErrorStatuses({ ...traits, security: 'cmsToken' })).toEqual(expect.arrayContaining([401, 403]));
    expect(derivedErrorStatuses({ ...traits, hasPathParams: true })).toContain(404);
    expect(derivedErrorStatuses({ ...traits, namesResourceInInput: true })).toContain(404);
    expect(derivedErrorStatuses({ ...traits, hasBody: true })).toContain(415);
    expect(derivedErrorStatuses({ ...traits, method: 'post', idempotencyKeys: true })).toContain(409);
    expect(derivedErrorStatuses({ ...traits, method: 'get', idempotencyKeys: true })).not.toContain(409);
  });

  it('finds ids of other resources anywhere in a body', () => {
    expect(namesResource(z.object({ name: z.string(), amount: z.number() }))).toBe(false);
    expect(namesResource(z.object({ id: idOf('store') }).strict())).toBe(true);
    expect(
      namesResource(z.object({ items: z.array(z.object({ priceId: idOf('price').optional() })).nullable() })),
    ).toBe(true);
    expect(
      namesResource(z.object({ data: z.union([z.string(), z.object({ flowId: idOf('flow').default('flow_1') })]) })),
    ).toBe(true);
  });
});

describe('the response contract check', () => {
  it('notes an answer whose status or body its operation does not declare', async () => {
    const app = express();
    app.use(checkResponseContract(createLogger('silent')));
    const router = express.Router();
    const response = z.object({ ok: z.boolean() });
    defineRoute(
      router,
      '/unit-contract',
      { method: 'get', path: '/teapot', summary: 'teapot', tags: ['t'], security: 'none', response },
      ({ res }) => {
        res.status(418);
        return { ok: true };
      },
    );
    defineRoute(
      router,
      '/unit-contract',
      {
        method: 'get',
        path: '/drift/:thingId',
        summary: 'drift',
        tags: ['t'],
        security: 'none',
        params: z.object({ thingId: z.string() }),
        response,
      },
      () => ({ ok: 'yes' }) as never,
    );
    app.use('/unit-contract', router);
    const server = app.listen(0);
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/unit-contract`;
    try {
      takeContractViolations();
      expect((await fetch(`${base}/teapot`)).status).toBe(418);
      expect((await fetch(`${base}/drift/t_1`)).status).toBe(200);
      expect(takeContractViolations()).toEqual([
        expect.objectContaining({
          operation: 'GET /unit-contract/teapot',
          status: 418,
          problem: expect.stringContaining('not declared'),
        }),
        expect.objectContaining({
          operation: 'GET /unit-contract/drift/{thingId}',
          status: 200,
          problem: expect.stringContaining('ok'),
        }),
      ]);
      expect(findOperation('GET', '/unit-contract/drift/t_2')?.responses.has(404)).toBe(true);
    } finally {
      server.close();
    }
  });
});
