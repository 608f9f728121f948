import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { AuthContext } from '../../src/http/core/context';
import { toApiError } from '../../src/http/core/errors';
import { accountRateLimit } from '../../src/http/rate-limit/limiter';
import { createLogger } from '../../src/logging/logger';

/**
 * The limiter on a bare Express app with shrunken "minutes", so both windows can be crossed in
 * well under a second. The caller's account comes from a header instead of an API key.
 */
async function serve(minuteMs: number) {
  const app = express();
  app.use((req: Request, _res: Response, next: NextFunction) => {
    const accountId = req.header('x-account');
    req.auth = {
      keyId: 'key_x',
      kind: 'crm',
      mode: 'test',
      role: 'org:admin',
      partnerId: 'par_x',
      accountId,
      plan: (req.header('x-plan') as AuthContext['plan']) ?? 'standard',
    };
    next();
  });
  const limit = accountRateLimit({
    logger: createLogger('silent'),
    quotas: { standard: { perMinute: 1, burst: 4 }, premium: { perMinute: 5, burst: 8 } },
    windows: { minuteMs, sustainedMinutes: 6 },
  });
  // Mounted twice like the real routes: a request falling through must be counted once.
  app.use('/a', ...limit, (_req: Request, _res: Response, next: NextFunction) => next());
  app.use('/a', ...limit, (_req: Request, res: Response) => {
    res.json({ ok: true });
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const apiError = toApiError(error);
    res
      .set(apiError.headers ?? {})
      .status(apiError.status)
      .json(apiError.body());
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/a`;
  const hit = async (account = 'acc_1', plan = 'standard') => {
    const response = await fetch(url, { headers: { 'x-account': account, 'x-plan': plan } });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as { code?: string; message?: string },
    };
  };
  return { hit, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Windows are long enough that a slow, loaded machine cannot cross one by accident mid-test.
describe('per-account rate limiter: burst window and sustained window', () => {
  it('admits the burst, then refuses with 429, Retry-After and RateLimit headers, per account', async () => {
    const app = await serve(10_000);
    try {
      for (let i = 1; i <= 4; i++) {
        const ok = await app.hit();
        expect(ok.status).toBe(200);
        expect(ok.headers.get('ratelimit-limit')).toBe('4');
        expect(ok.headers.get('ratelimit-remaining')).toBe(String(4 - i));
        expect(ok.headers.get('ratelimit-policy')).toBe('4;w=10, 6;w=60');
      }
      const refused = await app.hit();
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('RATE_LIMITED');
      expect(refused.body.message).toMatch(/4 requests per 10 s \(burst\)/);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(10);
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      // Another account has its own counters.
      expect((await app.hit('acc_2')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('admits again once the refused window has passed', async () => {
    const app = await serve(1000);
    try {
      let refused: Awaited<ReturnType<typeof app.hit>> | undefined;
      for (let i = 0; i < 10 && !refused; i++) {
        const answer = await app.hit('acc_r');
        if (answer.status === 429) refused = answer;
      }
      expect(refused?.status).toBe(429);
      await sleep(Number(refused!.headers.get('retry-after')) * 1000 + 50);
      expect((await app.hit('acc_r')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('holds the average: after two bursts the sustained window refuses though the burst window has room', async () => {
    // burst 4 per 1 s "minute"; sustained 1/min x 6 min = 6 per 6 s.
    const app = await serve(1000);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await app.hit('acc_s')).status);
      await sleep(1050);
      for (let i = 0; i < 3; i++) statuses.push((await app.hit('acc_s')).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
      const refused = await app.hit('acc_s');
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/6 requests per 6 s/);
      expect(refused.headers.get('ratelimit-limit')).toBe('6');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await app.close();
    }
  });

  it('gives Premium its larger quota', async () => {
    const app = await serve(10_000);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 9; i++) statuses.push((await app.hit('acc_p', 'premium')).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
    } finally {
      await app.close();
    }
  });
});
