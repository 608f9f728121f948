import { signOfferLink, verifyOfferLink, type OfferLinkPayload } from '../../src/portal/offerLinks';
import { hashLoginCode, newLoginCode, sameHash } from '../../src/portal/tokens';

const secret = Buffer.from('0123456789abcdef0123456789abcdef');
const now = Date.parse('2027-01-01T00:00:00.000Z');
const payload: OfferLinkPayload = {
  accountId: 'acc_1',
  mode: 'test',
  storeId: 'store_1',
  customerId: 'cus_1',
  actions: ['switch'],
  targetId: 'sub_1',
  exp: now / 1000 + 3600,
};

describe('signed offer links', () => {
  it('round-trips a valid link', () => {
    expect(verifyOfferLink(signOfferLink(payload, secret), secret, now)).toEqual(payload);
  });

  it('refuses expired, tampered, re-signed-with-another-key and malformed links', () => {
    const link = signOfferLink(payload, secret);
    expect(verifyOfferLink(link, secret, (payload.exp + 1) * 1000)).toBeNull();
    const forged = Buffer.from(JSON.stringify({ ...payload, actions: ['switch', 'credits.redeem'] })).toString(
      'base64url',
    );
    expect(verifyOfferLink(`${forged}.${link.split('.')[1]}`, secret, now)).toBeNull();
    expect(
      verifyOfferLink(signOfferLink(payload, Buffer.from('another-secret-another-secret-xx')), secret, now),
    ).toBeNull();
    expect(verifyOfferLink('nonsense', secret, now)).toBeNull();
    expect(verifyOfferLink(`${link}.extra`, secret, now)).toBeNull();
  });
});

describe('login codes', () => {
  it('are 6 digits and hashed per login', () => {
    const code = newLoginCode();
    expect(code).toMatch(/^\d{6}$/);
    expect(hashLoginCode('plc_a', code)).not.toBe(hashLoginCode('plc_b', code));
    expect(sameHash(hashLoginCode('plc_a', code), hashLoginCode('plc_a', code))).toBe(true);
    expect(
      sameHash(hashLoginCode('plc_a', code), hashLoginCode('plc_a', code === '000000' ? '000001' : '000000')),
    ).toBe(false);
  });
});
