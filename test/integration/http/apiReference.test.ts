import { call } from '../../helpers/harness';
import { useHarness } from '../../helpers/useHarness';

describe('GET /docs: the rendered API reference, served offline', () => {
  const harness = useHarness();

  it('answers an HTML page without an API key whose every asset is served by the engine itself', async () => {
    const page = await call(harness, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = page.body as string;
    // Nothing is loaded from another origin (no CDN): the engine runs without internet access.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(assets).toEqual(
      expect.arrayContaining(['/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js', '/docs/start.js']),
    );
    for (const asset of assets) {
      const answer = await fetch(`${harness.url}${asset}`);
      expect({ asset, status: answer.status }).toEqual({ asset, status: 200 });
      expect((await answer.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });

  it('renders this engine’s document: the start script points at /openapi.json, which serves it', async () => {
    const script = await fetch(`${harness.url}/docs/start.js`);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(await script.text()).toContain("url: '/openapi.json'");
    const document = await call(harness, 'GET', '/openapi.json');
    expect(document.status).toBe(200);
    expect(Object.keys(document.body.paths)).toContain('/api/public/v1/checkout/pay-v2');
  });

  it('sends / to /docs, and an unknown asset is a 404 in the error shape', async () => {
    const root = await fetch(`${harness.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/docs');
    const missing = await call(harness, 'GET', '/docs/assets/nothing-here.js');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'NOT_FOUND' });
  });
});
