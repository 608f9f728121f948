import { ConfigError, parseConfig, withStartDefaults } from '../../src/config';

// A production configuration needs a key from the environment.
const key = 'ab'.repeat(32);

describe('configuration from the environment', () => {
  it('has embedded defaults when nothing is set', () => {
    const cfg = parseConfig({});
    expect(cfg.PORT).toBe(3000);
    expect(cfg.DATABASE_URL).toBeUndefined();
    expect(cfg.TEMPORAL_ADDRESS).toBeUndefined();
    expect(cfg.TEMPORAL_NAMESPACE).toBe('default');
    expect(cfg.TEMPORAL_UI_PORT).toBe(8233);
  });

  it('names every bad variable in one readable error', () => {
    let error: unknown;
    try {
      parseConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', ENCRYPTION_KEY: 'short' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('PORT');
    expect(message).toContain('DATABASE_URL');
    expect(message).toContain('ENCRYPTION_KEY');
  });

  it('reads IAM_ALLOWED_ORIGINS as a list of origins and refuses a URL with a path', () => {
    expect(parseConfig({}).IAM_ALLOWED_ORIGINS).toEqual([]);
    expect(
      parseConfig({ IAM_ALLOWED_ORIGINS: 'https://dash.example.com, http://localhost:5173' }).IAM_ALLOWED_ORIGINS,
    ).toEqual(['https://dash.example.com', 'http://localhost:5173']);
    expect(() => parseConfig({ IAM_ALLOWED_ORIGINS: 'https://dash.example.com/app' })).toThrow(/IAM_ALLOWED_ORIGINS/);
  });

  it('rejects a bad LOG_LEVEL as configuration, in one line naming it', () => {
    let error: unknown;
    try {
      parseConfig({ LOG_LEVEL: 'loud' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^invalid configuration: LOG_LEVEL: /);
    expect((error as Error).message).not.toContain('\n');
  });

  it('refuses a headers timeout longer than the request timeout (Node would not start the server)', () => {
    expect(parseConfig({}).HTTP_HEADERS_TIMEOUT_MS).toBeLessThanOrEqual(parseConfig({}).HTTP_REQUEST_TIMEOUT_MS);
    expect(
      parseConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '5000' }).HTTP_HEADERS_TIMEOUT_MS,
    ).toBe(5000);
    expect(() => parseConfig({ HTTP_HEADERS_TIMEOUT_MS: '5001', HTTP_REQUEST_TIMEOUT_MS: '5000' })).toThrow(
      /^invalid configuration: HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS$/,
    );
  });

  it('parses booleans strictly', () => {
    expect(parseConfig({ TEMPORAL_TLS: 'true' }).TEMPORAL_TLS).toBe(true);
    expect(parseConfig({ TEMPORAL_TLS: '0' }).TEMPORAL_TLS).toBe(false);
    expect(() => parseConfig({ TEMPORAL_TLS: 'yes' })).toThrow(ConfigError);
  });

  it('allows loopback webhook receivers under npm start outside production only, and elsewhere only when set', () => {
    // npm run api / npm run worker alone: off unless the operator sets it.
    expect(parseConfig({}).WEBHOOK_ALLOW_LOOPBACK).toBeUndefined();
    expect(parseConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true' }).WEBHOOK_ALLOW_LOOPBACK).toBe(true);
    // npm start: on by default, off with NODE_ENV=production, and the operator's value wins.
    expect(withStartDefaults(parseConfig({})).WEBHOOK_ALLOW_LOOPBACK).toBe(true);
    expect(withStartDefaults(parseConfig({ NODE_ENV: 'production', ENCRYPTION_KEY: key })).WEBHOOK_ALLOW_LOOPBACK).toBe(
      false,
    );
    expect(withStartDefaults(parseConfig({ WEBHOOK_ALLOW_LOOPBACK: 'false' })).WEBHOOK_ALLOW_LOOPBACK).toBe(false);
    expect(
      withStartDefaults(parseConfig({ NODE_ENV: 'production', ENCRYPTION_KEY: key, WEBHOOK_ALLOW_LOOPBACK: 'true' }))
        .WEBHOOK_ALLOW_LOOPBACK,
    ).toBe(true);
    expect(() => parseConfig({ WEBHOOK_ALLOW_LOOPBACK: 'yes' })).toThrow(/WEBHOOK_ALLOW_LOOPBACK/);
  });
});
