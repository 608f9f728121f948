import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../../src/config';
import { curlRequest, differences, expand, readSteps } from '../../helpers/curlDoc';
import { addProcessingKey, createMerchant, createPartner } from '../../helpers/fixtures';
import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';

/** docs/api-keys.md's call with each key family, sent as written with keys of each family. */
const page = fs.readFileSync(path.join(projectRoot, 'docs/api-keys.md'), 'utf8');
const section = page.slice(page.indexOf('**One call with each key.**'), page.indexOf('**Auth check.**'));

describe('docs/api-keys.md: one call with each key', () => {
  const harness = useHarness();

  it('answers each documented call with its documented status and fields', async () => {
    const partner = await createPartner(harness.db);
    const created = await call(harness, 'POST', '/api/public/v1/partner/merchants', {
      token: partner.token,
      body: { name: 'Key examples', plan: 'premium' },
    });
    const minted = await call(harness, 'POST', `/api/public/v1/partner/merchants/${created.body.id}/keys`, {
      token: partner.token,
      body: { mode: 'test' },
    });
    expect(minted.status).toBe(201);
    const merchant = await createMerchant(harness.db, { plan: 'premium' });
    const store = await call(harness, 'POST', '/api/public/v1/stores', {
      token: merchant.token,
      body: { name: 'Processing store', baseCurrency: 'EUR' },
    });
    const processing = await addProcessingKey(harness.db, merchant, [store.body.id]);
    const variables = {
      API: harness.url,
      PARTNER_KEY: partner.token,
      CRM_KEY: minted.body.token as string,
      PROCESSING_KEY: processing.token,
    };

    const steps = readSteps(section);
    expect(steps.length).toBeGreaterThanOrEqual(3);
    const families = new Set<string>();
    for (const step of steps) {
      const args = step.words.map((word) => expand(word, variables));
      const request = curlRequest(args);
      expect(request.url.startsWith(harness.url)).toBe(true);
      const key = Object.entries(variables).find(([, value]) => request.headers.authorization === `Bearer ${value}`);
      families.add(key![0]);
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      const text = await response.text();
      expect({ command: args.join(' '), status: response.status }).toEqual({
        command: args.join(' '),
        status: step.status,
      });
      expect(differences(step.answer, JSON.parse(text))).toEqual([]);
    }
    expect([...families].sort()).toEqual(['CRM_KEY', 'PARTNER_KEY', 'PROCESSING_KEY']);
  });
});
