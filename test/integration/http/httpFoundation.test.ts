import { execFile } from 'node:child_process';
import path from 'node:path';
import { createPrismaClient } from '../../../src/db/prisma';
import { startApi, type RunningApi } from '../../../src/runtime/api';
import { freePort } from '../../../temporal/devServer';
import { createMerchant } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { until } from '../../helpers/until';
import { useHarness } from '../../helpers/useHarness';

function validateOpenApi(document: string): Promise<{ valid: boolean; version: string; errors: unknown }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, '..', '..', 'helpers', 'validateOpenApi.ts')],
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
    );
    child.stdin!.end(document);
  });
}

describe('HTTP foundations against real Postgres and the Temporal dev server', () => {
  const harness = useHarness();

  it('reports Postgres and Temporal up, with a worker polling, without auth', async () => {
    // The harness's worker has started, but the server lists a poller only once its first poll
    // arrives (seconds on a loaded machine); until then health rightly answers 503.
    const answer = await until(async () => {
      const health = await call(harness, 'GET', '/api/public/v1/health');
      return health.body?.temporal?.workerPolling === true ? health : undefined;
    }, 30_000);
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe('ok');
    expect(answer.body.database.status).toBe('up');
    expect(answer.body.temporal.status).toBe('up');
    expect(answer.body.temporal.workerPolling).toBe(true);
    expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
  });

  describe('503 with the failing part', () => {
    let api: RunningApi | undefined;
    afterEach(async () => {
      await api?.stop();
      api = undefined;
    });

    it('when no worker polls the task queue', async () => {
      api = await startApi({ ...harnessDeps(), taskQueue: `nobody-polls-${Date.now()}` }, 0, '127.0.0.1');
      const answer = await call(api, 'GET', '/api/public/v1/health');
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({
        status: 'degraded',
        database: { status: 'up' },
        temporal: { status: 'up', workerPolling: false },
      });
    });

    it('when the database is unreachable', async () => {
      const unreachable = createPrismaClient(`postgresql://postgres:postgres@127.0.0.1:${await freePort()}/none`, 1);
      try {
        api = await startApi({ ...harnessDeps(), db: unreachable }, 0, '127.0.0.1');
        const answer = await call(api, 'GET', '/api/public/v1/health');
        expect(answer.status).toBe(503);
        expect(answer.body).toMatchObject({
          status: 'degraded',
          database: { status: 'down', error: expect.any(String) },
          temporal: { status: 'up', workerPolling: true },
        });
      } finally {
        await unreachable.$disconnect();
      }
    });

    const harnessDeps = () => ({
      db: harness.db,
      temporal: harness.temporal,
      config: harness.config,
      logger: harness.logger,
      taskQueue: harness.taskQueue,
      sandboxUrl: harness.sandboxUrl,
    });
  });

  it('answers an unknown route with 404 in the error shape', async () => {
    const answer = await call(harness, 'GET', '/no-such-thing');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ code: 'NOT_FOUND', message: expect.stringContaining('/no-such-thing') });
  });

  it('answers an unknown public API route with 404 for a valid key, and 401 without one', async () => {
    const merchant = await createMerchant(harness.db);
    const known = await call(harness, 'GET', '/api/public/v1/no-such-thing', { token: merchant.token });
    expect(known.status).toBe(404);
    expect(known.body.code).toBe('NOT_FOUND');
    // Authentication comes before routing, so the API's paths are not probed anonymously.
    const anonymous = await call(harness, 'GET', '/api/public/v1/no-such-thing');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('NOT_AUTHORIZED');
  });

  it('answers malformed JSON with 400, never 500', async () => {
    const merchant = await createMerchant(harness.db);
    const answer = await call(harness, 'POST', '/api/public/v1/stores', { token: merchant.token, raw: '{"broken": ' });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('INVALID_JSON');
    expect(typeof answer.body.message).toBe('string');
  });

  it('answers a malformed %-escape in a path parameter with 400, never 500', async () => {
    const merchant = await createMerchant(harness.db);
    for (const path of ['/api/public/v1/stores/%E0%A4%A', '/api/public/v1/stores/%zz']) {
      const answer = await call(harness, 'GET', path, { token: merchant.token });
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 400,
        body: { code: 'BAD_REQUEST', message: 'Malformed percent-encoding in the URL path' },
      });
    }
  });

  it('answers an oversized body with 413 in the error shape', async () => {
    const answer = await call(harness, 'POST', '/api/public/v1/health', {
      raw: JSON.stringify({ blob: 'x'.repeat(1_100_000) }),
    });
    expect(answer.status).toBe(413);
    expect(answer.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('serves an OpenAPI 3.1 document generated from the validators', async () => {
    const answer = await call(harness, 'GET', '/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
    expect(answer.body.info.version).toBe('1.0.0');
    const health = answer.body.paths['/api/public/v1/health'].get;
    expect(health.responses['200'].content['application/json'].schema).toBeDefined();
    expect(health.security).toBeUndefined();
  });

  it('the OpenAPI document is valid against the OpenAPI 3.1 schema', async () => {
    const answer = await call(harness, 'GET', '/openapi.json');
    const verdict = await validateOpenApi(JSON.stringify(answer.body));
    expect(verdict).toEqual({ valid: true, version: '3.1', errors: null });
    // The same check refuses a broken document, so the verdict above means something.
    expect(
      (await validateOpenApi(JSON.stringify({ ...answer.body, paths: { '/x': { get: { responses: 'none' } } } })))
        .valid,
    ).toBe(false);
  });

  it('keeps a caller-supplied request id', async () => {
    const answer = await call(harness, 'GET', '/api/public/v1/health', { headers: { 'x-request-id': 'trace-123' } });
    expect(answer.headers.get('x-request-id')).toBe('trace-123');
  });
});
