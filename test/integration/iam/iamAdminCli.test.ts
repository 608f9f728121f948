import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMerchant } from '../../helpers/fixtures';
import { startHarness, type Harness } from '../../helpers/harness';
import { runCommand, type CommandRun } from '../../helpers/runCommand';
import { iam } from './iamHelpers';

describe('admin create-user and session (separate processes on the same database and data folder)', () => {
  let harness: Harness;
  let dataDir: string;
  const admin = (...args: string[]): Promise<CommandRun> =>
    runCommand('npm', ['run', '--silent', 'admin', '--', ...args], {
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    });

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iam-cli-'));
    harness = await startHarness({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await harness?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('create-user prints the user and a session the API accepts; session prints a fresh one; a bad role exits non-zero', async () => {
    const merchant = await createMerchant(harness.db);
    const email = `cli.${process.pid}.${Date.now()}@example.test`;
    const created = await admin(
      'create-user',
      '--email',
      email,
      '--account',
      merchant.accountId,
      '--role',
      'org:admin',
    );
    expect(created.code).toBe(0);
    const output = JSON.parse(created.stdout);
    expect(output).toMatchObject({ userId: expect.stringMatching(/^usr_/), sessionToken: expect.any(String) });

    const me = await iam(harness, 'GET', '/me', output.sessionToken);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: output.userId,
      memberships: [{ accountId: merchant.accountId, role: 'org:admin' }],
    });

    const fresh = await admin('session', '--user', output.userId);
    expect(fresh.code).toBe(0);
    const { sessionToken } = JSON.parse(fresh.stdout);
    expect((await iam(harness, 'GET', '/me', sessionToken)).status).toBe(200);

    const refused = await admin(
      'create-user',
      '--email',
      `x.${email}`,
      '--account',
      merchant.accountId,
      '--role',
      'org:owner',
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toBe('');
  });
});
