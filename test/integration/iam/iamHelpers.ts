import { createUserCommand } from '../../../src/iam/adminCommands';
import type { AccountRole, PartnerRole } from '../../../src/iam/policies';
import { call, type Harness } from '../../helpers/harness';

let counter = 0;

/** A user made the operator's way (admin create-user) with its session token. */
export async function iamUser(
  harness: Harness,
  roles: { account?: [string, AccountRole]; partner?: [string, PartnerRole] } = {},
): Promise<{ userId: string; email: string; token: string }> {
  const email = `user${++counter}.${process.pid}.${Date.now()}@example.test`;
  const created = await createUserCommand(harness.db, harness.config, {
    email,
    account: roles.account && { accountId: roles.account[0], role: roles.account[1] },
    partner: roles.partner && { partnerId: roles.partner[0], role: roles.partner[1] },
  });
  return { userId: created.userId, email, token: created.sessionToken };
}

export const iam = (harness: Harness, method: string, path: string, token: string, body?: unknown) =>
  call(harness, method, `/api/v1/iam${path}`, { token, ...(body === undefined ? {} : { body }) });
