import { manifestSchema } from '../../src/plugins/manifest';

const direct = {
  name: 'Reviews',
  version: '1.2.0',
  requirements: { sdkVersion: 'v2' },
  routes: [{ method: 'GET', path: '/reviews', handler: 'listReviews' }],
};

function issuesOf(input: unknown): string[] {
  const parsed = manifestSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('plugin manifest', () => {
  it('defaults mode to direct-mode and accepts sdkVersion v1 and v2', () => {
    expect(manifestSchema.parse(direct).mode).toBe('direct-mode');
    expect(manifestSchema.parse({ ...direct, requirements: { sdkVersion: 'v1' } }).requirements.sdkVersion).toBe('v1');
  });

  it('accepts proxy-mode with an https upstream and handler-less routes', () => {
    const proxy = manifestSchema.parse({
      ...direct,
      mode: 'proxy-mode',
      upstreamUrl: 'https://plugins.example.com',
      routes: [{ method: 'POST', path: '/hook' }],
    });
    expect(proxy).toMatchObject({ mode: 'proxy-mode', upstreamUrl: 'https://plugins.example.com' });
  });

  it('names each problem', () => {
    expect(issuesOf({ ...direct, requirements: { sdkVersion: 'v3' } })).toEqual([
      expect.stringMatching(/^requirements\.sdkVersion: /),
    ]);
    expect(issuesOf({ ...direct, mode: 'side-mode' })).toEqual([expect.stringMatching(/^mode: /)]);
    expect(issuesOf({ ...direct, mode: 'proxy-mode' })).toEqual(
      expect.arrayContaining([
        'upstreamUrl: required in proxy-mode',
        'routes.0.handler: proxy-mode routes name no handler',
      ]),
    );
    expect(issuesOf({ ...direct, upstreamUrl: 'https://x.example' })).toEqual(['upstreamUrl: only in proxy-mode']);
    expect(issuesOf({ ...direct, mode: 'proxy-mode', upstreamUrl: 'http://x.example', routes: [] })).toEqual([
      'upstreamUrl: an https URL',
    ]);
    expect(issuesOf({ ...direct, routes: [{ method: 'GET', path: '/a' }] })).toEqual([
      'routes.0.handler: required in direct-mode',
    ]);
    expect(issuesOf({ ...direct, routes: [direct.routes[0], direct.routes[0]] })).toEqual([
      'routes.1: GET /reviews declared twice',
    ]);
    expect(issuesOf({ ...direct, version: 'latest' })).toEqual(['version: a semantic version such as 1.2.0']);
    expect(issuesOf({ ...direct, extra: true })).toHaveLength(1);
  });
});
