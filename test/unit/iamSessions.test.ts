import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { isDomainError } from '../../src/errors';
import { issueSessionToken, signingKeyPath } from '../../src/iam/embeddedIdp';
import { createSessionVerifier } from '../../src/iam/sessions';

const audience = 'payment-engine-iam';

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isDomainError(error, 'NOT_AUTHORIZED') && error.kind === 'unauthenticated') return error.message;
    throw error;
  }
  throw new Error('the token was accepted');
}

/** Flips one character of the payload: the signature no longer matches. */
function tamper(token: string): string {
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
  const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'usr_someoneElse' })).toString('base64url');
  return [header, forged, signature].join('.');
}

describe('embedded identity provider sessions', () => {
  let dataDir: string;
  const cfg = () => ({ DATA_DIR: dataDir, IAM_AUDIENCE: audience, IAM_SESSION_TTL_MINUTES: 5 });
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iam-idp-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('issues a token the verifier accepts, with the key file created once at mode 0600', async () => {
    const { sessionToken } = await issueSessionToken(cfg(), 'usr_abc');
    const stat = fs.statSync(signingKeyPath(dataDir));
    expect(stat.mode & 0o777).toBe(0o600);
    await expect(createSessionVerifier(cfg())(sessionToken)).resolves.toEqual({
      provider: 'embedded',
      issuer: 'payment-engine',
      subject: 'usr_abc',
    });
    const before = fs.readFileSync(signingKeyPath(dataDir), 'utf8');
    await issueSessionToken(cfg(), 'usr_def');
    expect(fs.readFileSync(signingKeyPath(dataDir), 'utf8')).toBe(before);
  });

  it('refuses a tampered token', async () => {
    const { sessionToken } = await issueSessionToken(cfg(), 'usr_abc');
    expect(await refusal(createSessionVerifier(cfg())(tamper(sessionToken)))).toMatch(/signature does not verify/);
  });

  it("refuses another installation's token (another key) and a wrong audience", async () => {
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iam-idp-other-'));
    try {
      const { sessionToken } = await issueSessionToken({ ...cfg(), DATA_DIR: otherDir }, 'usr_abc');
      expect(await refusal(createSessionVerifier(cfg())(sessionToken))).toMatch(/no key|signature/);
    } finally {
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
    const { sessionToken } = await issueSessionToken({ ...cfg(), IAM_AUDIENCE: 'another-app' }, 'usr_abc');
    expect(await refusal(createSessionVerifier(cfg())(sessionToken))).toMatch(/another audience/);
  });

  it('refuses what is not a JWT', async () => {
    expect(await refusal(createSessionVerifier(cfg())('not-a-jwt'))).toMatch(/malformed/);
  });
});

describe('external identity provider sessions (IAM_JWKS_URL)', () => {
  const issuer = 'https://idp.example.test/';
  let server: http.Server;
  let jwksUrl: string;
  let privateKey: CryptoKey;
  let strangerKey: CryptoKey;
  let verify: ReturnType<typeof createSessionVerifier>;

  beforeAll(async () => {
    ({ privateKey } = await generateKeyPair('RS256', { extractable: true }));
    ({ privateKey: strangerKey } = await generateKeyPair('RS256'));
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = await exportJWK(privateKey);
    const jwks = JSON.stringify({ keys: [{ ...publicJwk, kid: 'k1', alg: 'RS256', use: 'sig' }] });
    server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    verify = createSessionVerifier({
      DATA_DIR: '/nonexistent',
      IAM_JWKS_URL: jwksUrl,
      IAM_ISSUER: issuer,
      IAM_AUDIENCE: audience,
    });
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const sign = (
    claims: Record<string, unknown>,
    options: { key?: CryptoKey; iss?: string; aud?: string; exp?: number } = {},
  ) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject('user_2abc')
      .setIssuer(options.iss ?? issuer)
      .setAudience(options.aud ?? audience)
      .setIssuedAt()
      .setExpirationTime(options.exp ?? Math.floor(Date.now() / 1000) + 300)
      .sign(options.key ?? privateKey);

  it("accepts the provider's token, with its verified e-mail", async () => {
    await expect(verify(await sign({ email: 'Ann@Example.test', email_verified: true }))).resolves.toEqual({
      provider: 'external',
      issuer,
      subject: 'user_2abc',
      email: 'Ann@Example.test',
    });
  });

  it('ignores an e-mail the provider marks unverified', async () => {
    await expect(verify(await sign({ email: 'ann@example.test', email_verified: false }))).resolves.toEqual({
      provider: 'external',
      issuer,
      subject: 'user_2abc',
    });
  });

  it('ignores an e-mail the provider does not say it verified (no email_verified claim, or not true)', async () => {
    for (const claims of [{ email: 'ann@example.test' }, { email: 'ann@example.test', email_verified: 'true' }])
      await expect(verify(await sign(claims))).resolves.toEqual({ provider: 'external', issuer, subject: 'user_2abc' });
  });

  it('refuses an expired token', async () => {
    const expired = await sign({}, { exp: Math.floor(Date.now() / 1000) - 120 });
    expect(await refusal(verify(expired))).toMatch(/expired/);
  });

  it('refuses a foreign issuer', async () => {
    expect(await refusal(verify(await sign({}, { iss: 'https://evil.example.test/' })))).toMatch(/another identity/);
  });

  it('refuses a wrong audience', async () => {
    expect(await refusal(verify(await sign({}, { aud: 'someone-else' })))).toMatch(/another audience/);
  });

  it('refuses a tampered token and one signed by a key outside the set', async () => {
    expect(await refusal(verify(tamper(await sign({}))))).toMatch(/signature does not verify/);
    expect(await refusal(verify(await sign({}, { key: strangerKey })))).toMatch(/signature does not verify/);
  });

  it('refuses an unsigned (alg: none) token', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({ sub: 'user_2abc', iss: issuer, aud: audience, exp: Math.floor(Date.now() / 1000) + 60 }),
    ).toString('base64url');
    expect(await refusal(verify(`${header}.${payload}.`))).toMatch(/algorithm|malformed/);
  });
});
