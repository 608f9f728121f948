import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { createUserCommand } from '../../../src/iam/adminCommands';
import { createMerchant } from '../../helpers/fixtures';
import { call, startHarness, type Harness } from '../../helpers/harness';

const issuer = 'https://idp.example.test/';
const dashboard = 'https://dashboard.example.test';
let counter = 0;
const uniqueEmail = () => `ext${++counter}.${process.pid}.${Date.now()}@example.test`;

/**
 * An external identity provider (IAM_JWKS_URL): subjects live in the provider's namespace, e-mails
 * link only when the provider marks them verified, and cookie-authenticated changes must come from
 * an allowed origin (CSRF).
 */
describe('identity management with an external identity provider', () => {
  let harness: Harness;
  let server: http.Server;
  let privateKey: CryptoKey;

  beforeAll(async () => {
    ({ privateKey } = await generateKeyPair('RS256', { extractable: true }));
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = await exportJWK(privateKey);
    const jwks = JSON.stringify({ keys: [{ ...publicJwk, kid: 'k1', alg: 'RS256', use: 'sig' }] });
    server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    harness = await startHarness({
      IAM_JWKS_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`,
      IAM_ISSUER: issuer,
      IAM_ALLOWED_ORIGINS: dashboard,
    });
  });
  afterAll(async () => {
    await harness?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  const sign = (subject: string, claims: Record<string, unknown> = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject(subject)
      .setIssuer(issuer)
      .setAudience(harness.config.IAM_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 300)
      .sign(privateKey);
  const me = (token: string) => call(harness, 'GET', '/api/v1/iam/me', { token });
  /** A user the operator made (admin create-user), org:admin of a fresh account. */
  async function accountAdmin() {
    const merchant = await createMerchant(harness.db);
    const email = uniqueEmail();
    const { userId } = await createUserCommand(harness.db, harness.config, {
      email,
      account: { accountId: merchant.accountId, role: 'org:admin' },
    });
    return { userId, email, accountId: merchant.accountId };
  }

  it("does not read the provider's usr_… subject as the engine user with that id", async () => {
    const { userId } = await accountAdmin();
    const answer = await me(await sign(userId));
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('NOT_AUTHORIZED');
    expect(await harness.db.userIdentity.count({ where: { userId } })).toBe(0);
  });

  it('links a subject by e-mail only when the provider says email_verified: true, once per issuer and user', async () => {
    const { userId, email } = await accountAdmin();
    const subject = `idp|${Date.now()}`;
    for (const claims of [{ email }, { email, email_verified: false }, { email, email_verified: 'true' }]) {
      expect((await me(await sign(subject, claims))).status).toBe(401);
    }
    expect(await harness.db.userIdentity.count({ where: { userId } })).toBe(0);

    const linked = await me(await sign(subject, { email: email.toUpperCase(), email_verified: true }));
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ id: userId, email });
    expect(await harness.db.userIdentity.findMany({ where: { userId } })).toEqual([
      expect.objectContaining({ issuer, subject, userId }),
    ]);
    // Linked: the subject alone now signs in.
    expect((await me(await sign(subject))).status).toBe(200);
    // Another subject of the same provider cannot take the user over with the same verified e-mail.
    expect((await me(await sign(`${subject}-other`, { email, email_verified: true }))).status).toBe(401);
  });

  describe('cross-site requests with the __session cookie', () => {
    let admin: Awaited<ReturnType<typeof accountAdmin>>;
    let token: string;
    beforeAll(async () => {
      admin = await accountAdmin();
      token = await sign(`idp|csrf-${Date.now()}`, { email: admin.email, email_verified: true });
      expect((await me(token)).status).toBe(200);
    });
    const addMember = (headers: Record<string, string>, viaBearer = false) =>
      call(harness, 'POST', `/api/v1/iam/accounts/${admin.accountId}/members`, {
        body: { email: uniqueEmail(), role: 'org:member' },
        headers: viaBearer ? headers : { cookie: `__session=${token}`, ...headers },
        ...(viaBearer ? { token } : {}),
      });
    const apiOrigin = () => new URL(harness.url).origin;

    it('refuses a cookie-authenticated change from another origin, with no origin, or Origin: null (403), and writes nothing', async () => {
      const before = await harness.db.accountMember.count({ where: { accountId: admin.accountId } });
      const cases: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        {},
        { origin: 'null' },
        { referer: 'https://evil.example/page' },
        // Origin wins over Referer: a cross-site page cannot borrow an allowed Referer.
        { origin: 'https://evil.example', referer: `${apiOrigin()}/x` },
      ];
      for (const headers of cases) {
        const refused = await addMember(headers);
        expect({ headers, status: refused.status, code: refused.body.code }).toEqual({
          headers,
          status: 403,
          code: 'CROSS_SITE_REQUEST_REFUSED',
        });
      }
      expect(await harness.db.accountMember.count({ where: { accountId: admin.accountId } })).toBe(before);
    });

    it('accepts the API origin, an allowed origin, a same-origin Referer, reads from anywhere, and bearer tokens', async () => {
      expect((await addMember({ origin: apiOrigin() })).status).toBe(201);
      expect((await addMember({ origin: dashboard })).status).toBe(201);
      expect((await addMember({ referer: `${apiOrigin()}/dashboard/members` })).status).toBe(201);
      const read = await call(harness, 'GET', `/api/v1/iam/accounts/${admin.accountId}/members`, {
        headers: { cookie: `__session=${token}`, origin: 'https://evil.example' },
      });
      expect(read.status).toBe(200);
      expect((await addMember({ origin: 'https://evil.example' }, true)).status).toBe(201);
    });
  });
});
