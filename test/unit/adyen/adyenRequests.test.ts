import { defaultReturnUrl } from '../../../src/processors/adyen/credentials';
import {
  lookupProbeCardNumber,
  lookupProbeRequest,
  modificationRequest,
  mpiData,
  paymentRequest,
} from '../../../src/processors/adyen/requests';
import type { AuthorizeRequest, ThreeDsValues } from '../../../src/processors/types';
import { passesLuhn } from '../../../simulators/vendors/adyen/cards';
import { checkoutRequestErrors } from '../../helpers/adyenSchemas';

const credentials = { apiKey: 'AQE_key', merchantAccount: 'AcmeECOM' };
const threeDs: ThreeDsValues = {
  eci: '05',
  authenticationValue: 'AAABBZEEBgAAAAAAAAAAAAAAAAA=',
  transStatus: 'Y',
  dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
  messageVersion: '2.2.0',
  type: 'customer',
};

function authorize(overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    idempotencyKey: 'pay_abc:1',
    paymentId: 'pay_abc',
    amount: 1999,
    currency: 'EUR',
    card: { number: '4242424242424242', expMonth: 3, expYear: 2030, holderName: 'Ada Lovelace' },
    capture: true,
    initiatedBy: 'customer',
    credentials,
    ...overrides,
  };
}

describe('Adyen payment request', () => {
  it('a customer purchase: Ecommerce, automatic capture, card fields as Adyen spells them', () => {
    const body = paymentRequest(authorize(), credentials);
    expect(body).toEqual({
      amount: { value: 1999, currency: 'EUR' },
      merchantAccount: 'AcmeECOM',
      reference: 'pay_abc',
      returnUrl: defaultReturnUrl,
      paymentMethod: {
        type: 'scheme',
        number: '4242424242424242',
        expiryMonth: '03',
        expiryYear: '2030',
        holderName: 'Ada Lovelace',
      },
      shopperInteraction: 'Ecommerce',
    });
    expect(checkoutRequestErrors('/v71/payments', body)).toEqual([]);
  });

  it("sends a complete browserInfo and the shopper's IP as Adyen takes them; an incomplete one is left out", () => {
    const browserInfo = {
      userAgent: 'Mozilla/5.0',
      acceptHeader: 'text/html',
      language: 'de-DE',
      colorDepth: 24,
      screenHeight: 1080,
      screenWidth: 1920,
      timeZoneOffset: -60,
      javaEnabled: false,
      javaScriptEnabled: true,
    };
    const body = paymentRequest(authorize({ browserInfo, shopperIp: '203.0.113.7' }), credentials);
    expect(body).toMatchObject({ browserInfo, shopperIP: '203.0.113.7' });
    expect(checkoutRequestErrors('/v71/payments', body)).toEqual([]);
    const partial = paymentRequest(
      authorize({ browserInfo: { userAgent: 'Mozilla/5.0', acceptHeader: 'text/html' } }),
      credentials,
    );
    expect(partial.browserInfo).toBeUndefined();
    const merchant = paymentRequest(
      authorize({ browserInfo, shopperIp: '203.0.113.7', initiatedBy: 'merchant' }),
      credentials,
    );
    expect(merchant.browserInfo).toBeUndefined();
    expect(merchant.shopperIP).toBeUndefined();
  });

  it('an authorization asks for manual capture; a merchant-initiated charge is ContAuth card-on-file', () => {
    const body = paymentRequest(authorize({ capture: false, initiatedBy: 'merchant' }), credentials);
    expect(body.additionalData).toEqual({ manualCapture: 'true' });
    expect(body.shopperInteraction).toBe('ContAuth');
    expect(body.recurringProcessingModel).toBe('UnscheduledCardOnFile');
    expect(checkoutRequestErrors('/v71/payments', body)).toEqual([]);
  });

  it('forwards a CVC only while the shopper is there, and a two-digit year as 20xx', () => {
    const card = { number: '4242424242424242', expMonth: 11, expYear: 31, cvc: '737' };
    expect(paymentRequest(authorize({ card }), credentials).paymentMethod).toMatchObject({
      cvc: '737',
      expiryMonth: '11',
      expiryYear: '2031',
    });
    expect(paymentRequest(authorize({ card, initiatedBy: 'merchant' }), credentials).paymentMethod).not.toHaveProperty(
      'cvc',
    );
  });

  it('uses the merchant return URL when the credentials carry one', () => {
    const withReturn = { ...credentials, returnUrl: 'https://shop.example.com/back' };
    expect(paymentRequest(authorize(), withReturn).returnUrl).toBe('https://shop.example.com/back');
  });

  it('forwards external 3DS values unchanged in mpiData', () => {
    const body = paymentRequest(authorize({ threeDs }), credentials);
    expect(body.mpiData).toEqual({
      cavv: threeDs.authenticationValue,
      eci: '05',
      dsTransID: threeDs.dsTransID,
      threeDSVersion: '2.2.0',
      directoryResponse: 'Y',
      authenticationResponse: 'Y',
    });
    expect(checkoutRequestErrors('/v71/payments', body)).toEqual([]);
  });

  it('leaves out what Adyen would refuse: a status outside a field’s values, an absent dsTransID', () => {
    // C (challenge) is a directory response, never a final authentication response.
    expect(mpiData({ ...threeDs, transStatus: 'C', dsTransID: undefined })).toEqual({
      cavv: threeDs.authenticationValue,
      eci: '05',
      threeDSVersion: '2.2.0',
      directoryResponse: 'C',
    });
    expect(mpiData({ ...threeDs, transStatus: 'X' })).not.toHaveProperty('directoryResponse');
  });
});

describe('Adyen modification requests', () => {
  const followUp = {
    idempotencyKey: 'pay_abc:capture',
    processorReference: 'QFQTPCQ8HXSKGK82',
    amount: 500,
    currency: 'EUR',
    credentials,
  };

  it.each([
    ['captures', true],
    ['refunds', true],
    ['cancels', false],
    ['reversals', false],
  ] as const)('%s: amount %s, the engine key as reference, valid per the document', (action, withAmount) => {
    const body = modificationRequest(followUp, credentials, withAmount);
    expect(body).toEqual({
      merchantAccount: 'AcmeECOM',
      reference: 'pay_abc:capture',
      ...(withAmount ? { amount: { value: 500, currency: 'EUR' } } : {}),
    });
    expect(checkoutRequestErrors(`/v71/payments/QFQTPCQ8HXSKGK82/${action}`, body)).toEqual([]);
  });
});

describe('Adyen lookup probe', () => {
  it('is a valid payment request whose card can never be charged', () => {
    const body = lookupProbeRequest(credentials);
    expect(checkoutRequestErrors('/v71/payments', body)).toEqual([]);
    expect(body.paymentMethod.number).toBe(lookupProbeCardNumber);
    expect(passesLuhn(lookupProbeCardNumber)).toBe(false);
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(body.amount.value).toBe(0);
  });
});
