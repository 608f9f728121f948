import { execFileSync } from 'node:child_process';
import { projectRoot } from '../../src/config';

/** The keys `npm run fuzz` runs with: made as an operator and a partner would make them. */
async function json(url: string, init: RequestInit = {}): Promise<any> {
  const answer = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  if (!answer.ok) throw new Error(`${init.method ?? 'GET'} ${url} answered ${answer.status}: ${await answer.text()}`);
  return answer.json();
}

export async function getDocument(api: string): Promise<{ paths: Record<string, unknown> }> {
  return json(`${api}/openapi.json`);
}

/** A test-mode partner and its partner key, from `npm run admin -- create-partner`. */
export function createPartnerKey(env: Record<string, string>, name: string): string {
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'src/cli/admin.ts', 'create-partner', '--name', name, '--mode', 'test'],
    {
      cwd: projectRoot,
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    },
  );
  return (JSON.parse(output) as { partnerKey: string }).partnerKey;
}

/** A premium merchant account of the partner and its org:admin CRM key. */
export async function createCrmKey(
  api: string,
  partnerKey: string,
  name: string,
): Promise<{ accountId: string; token: string }> {
  const headers = { authorization: `Bearer ${partnerKey}` };
  const merchant = await json(`${api}/api/public/v1/partner/merchants`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name, plan: 'premium' }),
  });
  const key = await json(`${api}/api/public/v1/partner/merchants/${merchant.id}/keys`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name }),
  });
  return { accountId: merchant.id as string, token: key.token as string };
}

/** A processing key over a store of a new premium merchant (store made with its CRM key). */
export async function createProcessingKey(api: string, partnerKey: string): Promise<string> {
  const merchant = await createCrmKey(api, partnerKey, 'fuzz processing');
  const store = await json(`${api}/api/public/v1/stores`, {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.token}` },
    body: JSON.stringify({ name: 'Fuzz store', baseCurrency: 'EUR' }),
  });
  const headers = { authorization: `Bearer ${partnerKey}` };
  const tpa = await json(`${api}/api/processing/v1/partner/tpas`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ accountId: merchant.accountId, storeId: store.id }),
  });
  const key = await json(`${api}/api/processing/v1/partner/tpas/${tpa.id}/keys`, {
    method: 'POST',
    headers,
    body: JSON.stringify({}),
  });
  return key.secret as string;
}
