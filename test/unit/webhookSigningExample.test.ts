import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/config';
import { signWebhookPayload, verifyWebhookSignature } from '../../src/webhooks/signing';

/**
 * docs/webhooks.md's worked example, read from the page: the engine's signing function must produce
 * the documented header for the documented secret, timestamp and body, and the verifier must
 * behave as the page says around it.
 */
const page = fs.readFileSync(path.join(projectRoot, 'docs/webhooks.md'), 'utf8');
const section = page.slice(page.indexOf('### Worked example'));
const blocks = [...section.matchAll(/^```text\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
const field = (name: string) => {
  const line = blocks[0]!.split('\n').find((text) => text.startsWith(`${name}:`));
  if (!line) throw new Error(`the worked example names no ${name}`);
  return line.slice(name.length + 1).trim();
};

describe("docs/webhooks.md's worked signature example", () => {
  const secret = field('secret');
  const timestamp = Number(field('timestamp'));
  const body = field('body');
  const header = /^x-webhook-signature: (.+)$/m.exec(blocks[1] ?? '')?.[1];

  it('is the header the engine signs the documented body with', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(body)).toMatchObject({ type: 'payment/succeeded', mode: 'test' });
    expect(header).toBe(signWebhookPayload(body, [secret], timestamp));
  });

  it('verifies within ±300 s of its timestamp and not outside, nor for other bytes', () => {
    for (const now of [timestamp - 300, timestamp, timestamp + 300])
      expect(verifyWebhookSignature(body, header, secret, { now })).toEqual({ valid: true, timestamp });
    for (const now of [timestamp - 301, timestamp + 301])
      expect(verifyWebhookSignature(body, header, secret, { now })).toEqual({
        valid: false,
        reason: 'timestamp_out_of_tolerance',
      });
    for (const other of [body.replace('2500', '2501'), JSON.stringify(JSON.parse(body), null, 1)])
      expect(verifyWebhookSignature(other, header, secret, { now: timestamp })).toEqual({
        valid: false,
        reason: 'no_matching_signature',
      });
  });
});
