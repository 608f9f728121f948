import { randomInt } from 'node:crypto';
import { testRedisUrl, withRedis } from '../../helpers/redis';
import type { Config } from '../../../src/config';
import { createPrismaClient } from '../../../src/db/prisma';
import { closeRateLimitConnections } from '../../../src/http/rate-limit/stores';
import { createLogger } from '../../../src/logging/logger';
import type { Mail, Mailer } from '../../../src/portal/mailer';
import { startApi, type RunningApi } from '../../../src/runtime/api';
import { createMerchant } from '../../helpers/fixtures';
import { call, startHarness, type ApiAnswer, type Harness } from '../../helpers/harness';
import { createCustomer, createStore } from '../subscriptions/subscriptionsFixtures';
import { until } from '../../helpers/until';

/** A mailer that keeps every mail and takes `delayMs` to "send" it, like a slow SMTP relay. */
function recordingMailer(delayMs = 0): Mailer & { sent: Mail[] } {
  const sent: Mail[] = [];
  return {
    sent,
    send: async (mail) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      sent.push(mail);
    },
    close: () => undefined,
  };
}

/** A fresh documentation address per call, so no two tests share a per-IP counter. */
const newIp = () => `203.0.113.${randomInt(1, 255)}`;
let ipCounter = 0;
const uniqueIp = () => `198.51.${100 + (++ipCounter % 100)}.${randomInt(1, 255)}`;

const limits = {
  PORTAL_LOGIN_WINDOW_MINUTES: 60,
  PORTAL_LOGIN_MAX_PER_EMAIL: 12,
  PORTAL_LOGIN_MAX_PER_IP: 15,
  PORTAL_CONFIRM_MAX_PER_EMAIL: 12,
  PORTAL_CONFIRM_MAX_PER_IP: 20,
  PORTAL_LOGIN_MAX_FAILED_CONFIRMS_PER_DAY: 6,
};

/** Portal sign-in: limits per (store, e-mail) and per IP, one live code, the daily cap, no account enumeration. */
describe('portal sign-in limits', () => {
  let harness: Harness;
  const db = createPrismaClient(process.env.TEST_DATABASE_URL!, 4);
  const servers: RunningApi[] = [];
  const serve = async (mailer: Mailer, extra: Partial<Config> = {}) => {
    const api = await startApi(
      {
        db,
        temporal: harness.temporal,
        config: { ...harness.config, ...limits, ...extra },
        logger: createLogger('silent'),
        taskQueue: harness.taskQueue,
        sandboxUrl: harness.sandboxUrl,
        mailer,
      },
      0,
      '127.0.0.1',
    );
    servers.push(api);
    return api;
  };

  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await closeRateLimitConnections();
    await db.$disconnect();
    await harness?.stop();
  });

  const login = (server: { url: string }, storeId: string, email: string, ip = newIp()) =>
    call(server, 'POST', '/api/v1/cms/session/login', {
      body: { storeId, email },
      headers: { 'x-forwarded-for': ip },
    });
  const confirm = (server: { url: string }, loginId: string, code: string, ip = newIp()) =>
    call(server, 'POST', '/api/v1/cms/session/confirm', {
      body: { loginId, code },
      headers: { 'x-forwarded-for': ip },
    });
  const codeOf = (mailer: { sent: Mail[] }, loginId: string) =>
    mailer.sent.find((mail) => mail.meta?.loginId === loginId)?.meta?.code;
  /** Codes are mailed after the login's answer: waits until `check` holds. */
  const mailed = (check: () => boolean) => until(() => (check() ? true : undefined), 10_000);
  async function customerOfNewStore() {
    const merchant = await createMerchant(db);
    const store = await createStore(db, merchant);
    const email = `limits-${Date.now()}-${randomInt(1e9)}@example.com`;
    await createCustomer(db, merchant, email);
    return { storeId: store.id, email };
  }
  const expectRateLimited = (answer: ApiAnswer, maxRetryAfter: number) => {
    expect(answer.status).toBe(429);
    expect(answer.body).toEqual({ code: 'RATE_LIMITED', message: expect.stringMatching(/retry after \d+ s/) });
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
    return retryAfter;
  };

  it('leaves exactly one live code when 10 logins for one e-mail run at once; only it confirms', async () => {
    const mailer = recordingMailer();
    const server = await serve(mailer);
    const { storeId, email } = await customerOfNewStore();
    const answers = await Promise.all(Array.from({ length: 10 }, () => login(server, storeId, email)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const loginIds = answers.map((answer) => answer.body.loginId as string);
    await mailed(() => loginIds.every((id) => codeOf(mailer, id)));

    const live = await db.portalLoginLiveCode.findMany({ where: { storeId, email } });
    expect(live).toHaveLength(1);
    expect(loginIds).toContain(live[0]!.loginCodeId);

    const confirms = await Promise.all(loginIds.map((id) => confirm(server, id, codeOf(mailer, id)!)));
    const confirmed = loginIds.filter((_, i) => confirms[i]!.status === 200);
    expect(confirmed).toEqual([live[0]!.loginCodeId]);
    expect(confirms.filter((answer) => answer.status === 401)).toHaveLength(9);
  });

  it('limits logins per (store, e-mail) from any address, alike for a customer and a stranger, with Retry-After', async () => {
    const mailer = recordingMailer();
    const server = await serve(mailer);
    const { storeId, email } = await customerOfNewStore();
    const stranger = `stranger-${Date.now()}-${randomInt(1e9)}@example.com`;
    for (const address of [email, stranger]) {
      for (let i = 0; i < limits.PORTAL_LOGIN_MAX_PER_EMAIL; i++)
        expect((await login(server, storeId, address, uniqueIp())).status).toBe(200);
      expectRateLimited(await login(server, storeId, address, uniqueIp()), 3600);
      // The case of the address does not make it another e-mail.
      expectRateLimited(await login(server, storeId, address.toUpperCase(), uniqueIp()), 3600);
    }
    // Another e-mail of the same store is not affected.
    expect((await login(server, storeId, `other-${Date.now()}@example.com`, uniqueIp())).status).toBe(200);
    const mailsBefore = mailer.sent.filter((mail) => mail.to === email).length;
    expect(mailsBefore).toBeLessThanOrEqual(limits.PORTAL_LOGIN_MAX_PER_EMAIL);
  });

  it('limits logins and confirms per client IP', async () => {
    const server = await serve(recordingMailer());
    const { storeId } = await customerOfNewStore();
    const ip = uniqueIp();
    for (let i = 0; i < limits.PORTAL_LOGIN_MAX_PER_IP; i++)
      expect((await login(server, storeId, `ip-${i}-${Date.now()}@example.com`, ip)).status).toBe(200);
    expectRateLimited(await login(server, storeId, `ip-last-${Date.now()}@example.com`, ip), 3600);
    // Another address still may.
    expect((await login(server, storeId, `ip-other-${Date.now()}@example.com`, uniqueIp())).status).toBe(200);

    const confirmIp = uniqueIp();
    for (let i = 0; i < limits.PORTAL_CONFIRM_MAX_PER_IP; i++)
      expect((await confirm(server, `plc_${'x'.repeat(20)}${i}`, '123456', confirmIp)).status).toBe(401);
    expectRateLimited(await confirm(server, `plc_${'y'.repeat(20)}`, '123456', confirmIp), 3600);
  });

  it("limits confirms of one e-mail's codes from any address", async () => {
    const mailer = recordingMailer();
    const server = await serve(mailer);
    const { storeId, email } = await customerOfNewStore();
    const { loginId } = (await login(server, storeId, email)).body as { loginId: string };
    await mailed(() => Boolean(codeOf(mailer, loginId)));
    const wrong = codeOf(mailer, loginId) === '000000' ? '111111' : '000000';
    for (let i = 0; i < limits.PORTAL_CONFIRM_MAX_PER_EMAIL; i++)
      expect((await confirm(server, loginId, wrong, uniqueIp())).status).toBe(401);
    expectRateLimited(await confirm(server, loginId, wrong, uniqueIp()), 3600);
  });

  it('refuses logins for a day once codes of the e-mail failed the daily cap, alike for a stranger', async () => {
    const mailer = recordingMailer();
    const server = await serve(mailer);
    const { storeId, email } = await customerOfNewStore();
    const stranger = `stranger-${Date.now()}-${randomInt(1e9)}@example.com`;
    const refusals: ApiAnswer[] = [];
    for (const address of [email, stranger]) {
      // 5 wrong tries burn the first code, 1 more on the second: 6 failures, the cap.
      for (const tries of [5, 1]) {
        const answer = await login(server, storeId, address, uniqueIp());
        expect(answer.status).toBe(200);
        for (let i = 0; i < tries; i++)
          expect((await confirm(server, answer.body.loginId, '000000', uniqueIp())).status).toBe(401);
      }
      const refused = await login(server, storeId, address, uniqueIp());
      const retryAfter = expectRateLimited(refused, 86_400);
      expect(retryAfter).toBeGreaterThan(86_000);
      expect(refused.body.message).toMatch(/wrong sign-in codes/);
      refusals.push(refused);
    }
    expect(refusals[0]!.body).toEqual(refusals[1]!.body);
    // A customer whose code was right once (no failures) is not affected.
    const fresh = await customerOfNewStore();
    expect((await login(server, fresh.storeId, fresh.email)).status).toBe(200);
  });

  it('answers a customer and a stranger alike and as fast, even when the mail server is slow', async () => {
    const mailer = recordingMailer(1500);
    const server = await serve(mailer);
    const { storeId, email } = await customerOfNewStore();
    const stranger = `stranger-${Date.now()}-${randomInt(1e9)}@example.com`;
    const timed = async (address: string) => {
      const started = Date.now();
      const answer = await login(server, storeId, address);
      return { answer, ms: Date.now() - started };
    };
    const customer = await timed(email);
    const unknown = await timed(stranger);
    expect([customer.answer.status, unknown.answer.status]).toEqual([200, 200]);
    expect(Object.keys(customer.answer.body).sort()).toEqual(Object.keys(unknown.answer.body).sort());
    expect(customer.answer.body.message).toBe(unknown.answer.body.message);
    // The customer's answer did not wait for the 1.5 s mail server.
    expect(customer.ms).toBeLessThan(1000);
    await mailed(() => Boolean(codeOf(mailer, customer.answer.body.loginId)));
    expect(mailer.sent.map((mail) => mail.to)).toEqual([email]);
  });

  // Needs Redis (TEST_REDIS_URL, else 127.0.0.1:6379); skipped with the reason when none answers.
  withRedis('with REDIS_URL the per-e-mail login limit is shared by two API servers', async () => {
    const redisUrl = testRedisUrl();
    const [a, b] = [
      await serve(recordingMailer(), { REDIS_URL: redisUrl }),
      await serve(recordingMailer(), { REDIS_URL: redisUrl }),
    ];
    const { storeId, email } = await customerOfNewStore();
    for (let i = 0; i < limits.PORTAL_LOGIN_MAX_PER_EMAIL; i++)
      expect((await login(i % 2 ? a : b, storeId, email, uniqueIp())).status).toBe(200);
    for (const server of [a, b]) expectRateLimited(await login(server, storeId, email, uniqueIp()), 3600);
  });
});
