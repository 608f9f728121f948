import { startSandbox, type RunningSandbox } from '../../simulators/server';

describe('the sandbox webhook inbox (real HTTP)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox(0);
  });
  afterAll(() => sandbox.stop());

  const deliver = (inbox: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${sandbox.url}/inbox/${inbox}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  it('records each delivery per inbox, byte for byte, and lists them newest first as JSON', async () => {
    const raw = '{"type":"payment/succeeded",  "data":{"id":"pay_1"}}';
    const first = await deliver('shop_a', raw, { 'x-webhook-event-type': 'payment/succeeded' });
    expect(first.status).toBe(200);
    await deliver('shop_a', '{"type":"order/paid"}', { 'x-webhook-event-type': 'order/paid' });
    await deliver('shop_b', 'not json', { 'content-type': 'text/plain' });
    const listed = (await (await fetch(`${sandbox.url}/inbox/shop_a`)).json()) as {
      data: { body: string; json: unknown; headers: Record<string, string> }[];
    };
    expect(listed.data.map((delivery) => delivery.headers['x-webhook-event-type'])).toEqual([
      'order/paid',
      'payment/succeeded',
    ]);
    expect(listed.data[1]!.body).toBe(raw);
    expect(listed.data[1]!.json).toEqual({ type: 'payment/succeeded', data: { id: 'pay_1' } });
    const other = (await (await fetch(`${sandbox.url}/inbox/shop_b`)).json()) as {
      data: { body: string; json: unknown }[];
    };
    expect(other.data).toEqual([expect.objectContaining({ body: 'not json', json: null })]);
    expect(((await (await fetch(`${sandbox.url}/inbox/empty`)).json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('shows a browser a page with the deliveries escaped, under a policy that runs no script', async () => {
    await deliver('shop_html', '{"name":"<script>alert(1)</script>"}', { 'x-webhook-event-type': 'order/paid' });
    const page = await fetch(`${sandbox.url}/inbox/shop_html`, { headers: { accept: 'text/html,*/*;q=0.8' } });
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('<h2>order/paid</h2>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)</script>');
  });

  it('refuses a malformed inbox id and empties an inbox on DELETE', async () => {
    expect((await deliver('bad%20id', '{}')).status).toBe(400);
    await deliver('shop_del', '{}');
    expect((await fetch(`${sandbox.url}/inbox/shop_del`, { method: 'DELETE' })).status).toBe(200);
    expect(((await (await fetch(`${sandbox.url}/inbox/shop_del`)).json()) as { data: unknown[] }).data).toEqual([]);
  });
});
