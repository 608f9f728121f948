import {
  adyenCredentialsSchema,
  checkoutBaseUrl,
  parseAdyenCredentials,
} from '../../../src/processors/adyen/credentials';
import { ProcessorTechnicalError } from '../../../src/processors/types';

const minimal = { apiKey: 'AQE_test_key', merchantAccount: 'AcmeECOM' };

describe('Adyen credentials', () => {
  it('takes the required pair and the optional fields', () => {
    expect(adyenCredentialsSchema.parse(minimal)).toEqual(minimal);
    const full = {
      ...minimal,
      hmacKey: 'DFB1EB5485895CFA84146406857104ABB4CBCABDC8AAF103A624C8F6A3EAAB00',
      liveUrlPrefix: '1797a841fbb37ca7-AdyenDemo',
      endpoint: 'http://127.0.0.1:4010',
      returnUrl: 'https://shop.example.com/return',
    };
    expect(adyenCredentialsSchema.parse(full)).toEqual(full);
  });

  it.each([
    [{ apiKey: 'k' }, 'merchantAccount'],
    [{ merchantAccount: 'm' }, 'apiKey'],
    [{ ...minimal, apiKey: '  ' }, 'apiKey'],
    [{ ...minimal, hmacKey: 'not-hex' }, 'hmacKey'],
    [{ ...minimal, hmacKey: 'ABC' }, 'hmacKey'],
    [{ ...minimal, endpoint: 'http://127.0.0.1:4010/v71' }, 'endpoint'],
    [{ ...minimal, endpoint: 'ftp://127.0.0.1' }, 'endpoint'],
    [{ ...minimal, liveUrlPrefix: 'has spaces' }, 'liveUrlPrefix'],
    [{ ...minimal, returnUrl: 'javascript:alert(1)' }, 'returnUrl'],
    [{ ...minimal, merchantId: 'x' }, ''],
  ])('refuses %j, naming %s', (credentials, field) => {
    const parsed = adyenCredentialsSchema.safeParse(credentials);
    expect(parsed.success).toBe(false);
    const paths = parsed.error!.issues.map((issue) => issue.path.join('.'));
    expect(paths).toContain(field);
  });

  it('before a call, bad credentials are a technical failure that sent nothing', () => {
    expect(() => parseAdyenCredentials({ apiKey: 'k' })).toThrow(ProcessorTechnicalError);
    try {
      parseAdyenCredentials({ apiKey: 'k' });
    } catch (error) {
      expect((error as ProcessorTechnicalError).code).toBe('invalid_credentials');
      expect((error as Error).message).toContain('merchantAccount');
    }
  });
});

describe('Checkout API base URL', () => {
  it('is the test environment without a live prefix', () => {
    expect(checkoutBaseUrl({})).toBe('https://checkout-test.adyen.com/v71');
  });

  it('is the account-specific live URL with a prefix (host names are case-insensitive)', () => {
    expect(checkoutBaseUrl({ liveUrlPrefix: '1797a841fbb37ca7-AdyenDemo' })).toBe(
      'https://1797a841fbb37ca7-adyendemo-checkout-live.adyenpayments.com/checkout/v71',
    );
  });

  it('takes scheme, host and port from endpoint and keeps the path', () => {
    expect(checkoutBaseUrl({ endpoint: 'http://127.0.0.1:4010' })).toBe('http://127.0.0.1:4010/v71');
    expect(checkoutBaseUrl({ endpoint: 'http://sim.local:8080/', liveUrlPrefix: 'abc-Co' })).toBe(
      'http://sim.local:8080/checkout/v71',
    );
    expect(checkoutBaseUrl({ endpoint: 'https://sim.example' })).toBe('https://sim.example/v71');
  });
});
