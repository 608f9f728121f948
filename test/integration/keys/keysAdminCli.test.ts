import { randomUUID } from 'node:crypto';
import { createMerchant } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { runCommand, type CommandRun } from '../../helpers/runCommand';
import { useHarness } from '../../helpers/useHarness';

/** `npm run --silent admin -- …` as an operator runs it, against the test database. */
function admin(...args: string[]): Promise<CommandRun> {
  return runCommand('npm', ['run', '--silent', 'admin', '--', ...args], {
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    LOG_LEVEL: 'info',
  });
}

describe('admin CLI (a separate process on the same database)', () => {
  const harness = useHarness();

  it('create-partner prints one JSON object whose partner key works; list-keys shows its prefix only; revoke-key ends it at once', async () => {
    const created = await admin('create-partner', '--name', 'CLI Partner', '--mode', 'test');
    expect(created.code).toBe(0);
    const output = JSON.parse(created.stdout);
    expect(output).toEqual({
      partnerId: expect.stringMatching(/^par_/),
      partnerKey: expect.stringMatching(/^tp_sk_test_[0-9A-Za-z]{40}$/),
      keyId: expect.stringMatching(/^key_/),
      name: 'CLI Partner',
      mode: 'test',
      kind: 'payfac',
    });
    expect(created.stderr).not.toContain(output.partnerKey);

    const merchant = await call(harness, 'POST', '/api/public/v1/partner/merchants', {
      token: output.partnerKey,
      body: { name: 'Via CLI partner' },
    });
    expect(merchant.status).toBe(201);

    const listed = await admin('list-keys', '--partner', output.partnerId);
    expect(listed.code).toBe(0);
    const { keys } = JSON.parse(listed.stdout);
    expect(keys).toEqual([
      expect.objectContaining({
        id: output.keyId,
        kind: 'partner',
        prefix: output.partnerKey.slice(0, 12),
        last4: output.partnerKey.slice(-4),
        status: 'active',
      }),
    ]);
    expect(listed.stdout).not.toContain(output.partnerKey);

    const revoked = await admin('revoke-key', output.keyId);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id: output.keyId, status: 'revoked' });
    // Revoked by another process: this API process refuses the key on the very next call.
    const after = await call(harness, 'GET', '/api/public/v1/partner/merchants', { token: output.partnerKey });
    expect(after.status).toBe(401);
  });

  it('create-partner --crm-only makes a partner that cannot create processing accounts', async () => {
    const created = await admin('create-partner', '--name', 'CRM Only', '--mode', 'live', '--crm-only');
    expect(created.code).toBe(0);
    const output = JSON.parse(created.stdout);
    expect(output).toMatchObject({ mode: 'live', kind: 'crm_only', partnerKey: expect.stringMatching(/^tp_sk_live_/) });
    const tpa = await call(harness, 'POST', '/api/processing/v1/partner/tpas', {
      token: output.partnerKey,
      body: { accountId: 'acc_x', storeId: 'store_x' },
    });
    expect(tpa.status).toBe(403);
    expect(tpa.body.code).toBe('payfac_required');
  });

  it('import-legacy-key stores an older CRM UUID token as a CRM key that works in either case', async () => {
    const merchant = await createMerchant(harness.db);
    const token = randomUUID().toUpperCase();
    const imported = await admin(
      'import-legacy-key',
      '--account',
      merchant.accountId,
      '--token',
      token,
      '--name',
      'Old CRM',
      '--role',
      'org:member',
    );
    expect(imported.code).toBe(0);
    const output = JSON.parse(imported.stdout);
    expect(output).toEqual({
      keyId: expect.stringMatching(/^key_/),
      kind: 'crm',
      accountId: merchant.accountId,
      partnerId: merchant.partnerId,
      prefix: token.toLowerCase().slice(0, 12),
      last4: token.toLowerCase().slice(-4),
      display: `${token.toLowerCase().slice(0, 12)}…${token.toLowerCase().slice(-4)}`,
      name: 'Old CRM',
      role: 'org:member',
      mode: 'live',
    });
    expect(imported.stdout + imported.stderr).not.toMatch(new RegExp(token, 'i'));
    for (const spelling of [token, token.toLowerCase()]) {
      const check = await call(harness, 'GET', '/api/public/v1/auth/test', { token: spelling });
      expect({ status: check.status, keyId: check.body.keyId, role: check.body.role, mode: check.body.mode }).toEqual({
        status: 200,
        keyId: output.keyId,
        role: 'org:member',
        mode: 'live',
      });
    }

    const again = await admin('import-legacy-key', '--account', merchant.accountId, '--token', token.toLowerCase());
    // (stderr also carries the info-level log lines this suite asks for)
    const lastLine = (run: { stderr: string }) => run.stderr.trim().split('\n').at(-1);
    expect({ code: again.code, stdout: again.stdout, last: lastLine(again) }).toEqual({
      code: 1,
      stdout: '',
      last: 'admin: this token is already a key',
    });
    const unknownAccount = await admin('import-legacy-key', '--account', 'acc_doesnotexist', '--token', randomUUID());
    expect({ code: unknownAccount.code, last: lastLine(unknownAccount) }).toEqual({
      code: 1,
      last: 'admin: no merchant account with id acc_doesnotexist',
    });
    const notUuid = await admin(
      'import-legacy-key',
      '--account',
      merchant.accountId,
      '--token',
      'sk_crm_live_not-a-uuid',
    );
    expect(notUuid.code).toBe(2);
    expect(notUuid.stderr).toMatch(/needs --token with a UUID/);
  });

  it('refuses bad usage with exit code 2 and nothing on stdout; an unknown key id exits 1', async () => {
    const badMode = await admin('create-partner', '--name', 'X', '--mode', 'production');
    expect(badMode.code).toBe(2);
    expect(badMode.stdout).toBe('');
    expect(badMode.stderr).toMatch(/--mode test or --mode live/);
    const unknown = await admin('revoke-key', 'key_doesnotexist');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no API key with id key_doesnotexist/);
  });
});
