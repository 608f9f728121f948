import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { createPrismaClient } from '../../../src/db/prisma';
import { authenticate } from '../../../src/http/auth/authenticate';
import { toApiError } from '../../../src/http/core/errors';
import { revokeApiKey } from '../../../src/keys/mintKey';
import { createLogger } from '../../../src/logging/logger';
import { startApi, type RunningApi } from '../../../src/runtime/api';
import { createPartner, type PartnerFixture } from '../../helpers/fixtures';
import { call, startHarness, type Harness } from '../../helpers/harness';

describe('revocation is immediate everywhere and lets in-flight calls finish', () => {
  let harness: Harness;
  let partner: PartnerFixture;
  let secondApi: RunningApi;
  const secondDb = createPrismaClient(process.env.TEST_DATABASE_URL!, 2);

  beforeAll(async () => {
    harness = await startHarness();
    partner = await createPartner(harness.db);
    // A second API server with its own connection pool: what another API process would see.
    secondApi = await startApi(
      {
        db: secondDb,
        temporal: harness.temporal,
        config: harness.config,
        logger: createLogger('silent'),
        taskQueue: harness.taskQueue,
        sandboxUrl: harness.sandboxUrl,
      },
      0,
      '127.0.0.1',
    );
  });
  afterAll(async () => {
    await secondApi?.stop();
    await secondDb.$disconnect();
    await harness?.stop();
  });

  const mintCrmKey = async () => {
    const account = (
      await call(harness, 'POST', '/api/public/v1/partner/merchants', {
        token: partner.token,
        body: { name: 'Revocable' },
      })
    ).body;
    const key = (
      await call(harness, 'POST', `/api/public/v1/partner/merchants/${account.id}/keys`, {
        token: partner.token,
        body: {},
      })
    ).body;
    return { accountId: account.id as string, keyId: key.id as string, token: key.token as string };
  };

  it('a key revoked through one API server gets 401 on the next call to another', async () => {
    const key = await mintCrmKey();
    expect((await call(secondApi, 'GET', '/api/public/v1/auth/test', { token: key.token })).status).toBe(200);
    const revoked = await call(
      harness,
      'POST',
      `/api/public/v1/partner/merchants/${key.accountId}/keys/${key.keyId}/revoke`,
      { token: partner.token },
    );
    expect(revoked.status).toBe(200);
    const next = await call(secondApi, 'GET', '/api/public/v1/auth/test', { token: key.token });
    expect(next.status).toBe(401);
    expect(next.body.code).toBe('NOT_AUTHORIZED');
  });

  it('a call already past authentication completes after its key is revoked; the next one is refused', async () => {
    const key = await mintCrmKey();
    let reachedHandler!: () => void;
    const inHandler = new Promise<void>((resolve) => (reachedHandler = resolve));
    let finish!: () => void;
    const released = new Promise<void>((resolve) => (finish = resolve));

    // The production auth middleware in front of a handler that waits, like a payment waiting on its workflow.
    const app = express();
    app.get('/slow', authenticate(harness.db), async (req: Request, res: Response) => {
      reachedHandler();
      await released;
      res.json({ keyId: req.auth?.keyId });
    });
    app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
      const apiError = toApiError(error);
      res.status(apiError.status).json(apiError.body());
    });
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const inFlight = call({ url }, 'GET', '/slow', { token: key.token });
      await inHandler;
      expect(await revokeApiKey(harness.db, { id: key.keyId })).toMatchObject({ status: 'revoked' });
      // Revoked while in flight: the real API already refuses the key...
      expect((await call(harness, 'GET', '/api/public/v1/auth/test', { token: key.token })).status).toBe(401);
      finish();
      // ...and the call that was already authenticated still completes.
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ keyId: key.keyId });
      expect((await call({ url }, 'GET', '/slow', { token: key.token })).status).toBe(401);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
