import type { Db } from '../../src/db/prisma';
import { maxAmount } from '../../src/domain/checkoutTotals';
import { keyedPaymentExists } from '../../src/payments/paymentInputs';
import {
  amountRefusal,
  isFreeCart,
  missingForCharge,
  paymentFlowFor,
  preparePaymentRequest,
} from '../../src/payments/paymentRequest';

const checkout = 'ch_1';
const store = (defaultPaymentFlowId: string | null) => ({ defaultPaymentFlowId });

describe('the rules of a payment request', () => {
  describe('free cart: only a checkout session may come to 0', () => {
    it('a checkout session of 0 is a free cart', () => {
      expect(isFreeCart({ amount: 0, checkoutSessionId: checkout })).toBe(true);
      expect(amountRefusal({ amount: 0, checkoutSessionId: checkout })).toBeNull();
    });

    it('a direct payment of 0 is not: INVALID_AMOUNT naming 1 as the lowest', () => {
      expect(isFreeCart({ amount: 0 })).toBe(false);
      expect(amountRefusal({ amount: 0 })).toEqual({
        kind: 'invalid',
        code: 'INVALID_AMOUNT',
        message: `amount must be an integer of minor units from 1 to ${maxAmount} (a direct payment of 0 has nothing to charge)`,
      });
    });

    it.each([[-1], [1.5], [maxAmount + 1]])('a checkout session of %p is INVALID_AMOUNT', (amount) => {
      expect(amountRefusal({ amount, checkoutSessionId: checkout })).toMatchObject({
        code: 'INVALID_AMOUNT',
        message: `amount must be an integer of minor units from 0 to ${maxAmount}`,
      });
    });

    it('a checkout session with a total is no free cart', () => {
      expect(isFreeCart({ amount: 1999, checkoutSessionId: checkout })).toBe(false);
    });
  });

  describe('default flow', () => {
    it('the flow named pays, whatever the store default', () => {
      expect(paymentFlowFor('flow_named', store('flow_default'))).toBe('flow_named');
    });

    it("without one, the store's default pays; with neither there is none", () => {
      expect(paymentFlowFor(undefined, store('flow_default'))).toBe('flow_default');
      expect(paymentFlowFor(null, store(null))).toBeNull();
    });
  });

  describe('card and flow: a request that charges needs both, its card first', () => {
    const means = { paymentInstrumentId: 'pi_1', paymentFlowId: 'flow_1' };

    it('a request with both lacks nothing', () => {
      expect(missingForCharge({ amount: 1999, ...means })).toBeNull();
    });

    it('without a card it lacks the card, even without a flow', () => {
      expect(missingForCharge({ amount: 1999, paymentInstrumentId: null, paymentFlowId: null })).toBe('card');
    });

    it('with a card and no flow it lacks the flow', () => {
      expect(missingForCharge({ amount: 1999, ...means, paymentFlowId: null })).toBe('flow');
    });

    it('a free cart lacks neither', () => {
      expect(
        missingForCharge({ amount: 0, checkoutSessionId: checkout, paymentInstrumentId: null, paymentFlowId: null }),
      ).toBeNull();
    });

    it('a direct payment of 0 still needs them (the amount refuses it first)', () => {
      expect(missingForCharge({ amount: 0, paymentInstrumentId: null, paymentFlowId: null })).toBe('card');
    });
  });

  describe('preparePaymentRequest', () => {
    it("decides the card and the flow: the store's default when none is named", () => {
      expect(
        preparePaymentRequest({
          amount: 1999,
          checkoutSessionId: checkout,
          paymentInstrumentId: 'pi_1',
          store: store('flow_default'),
        }),
      ).toEqual({ kind: 'ready', means: { paymentInstrumentId: 'pi_1', paymentFlowId: 'flow_default' } });
    });

    it('refuses a checkout session with a total and no card: PAYMENT_INSTRUMENT_REQUIRED', () => {
      expect(
        preparePaymentRequest({ amount: 1999, checkoutSessionId: checkout, store: store('flow_default') }),
      ).toEqual({
        kind: 'rejected',
        missing: 'card',
        error: {
          kind: 'invalid',
          code: 'PAYMENT_INSTRUMENT_REQUIRED',
          message: 'paymentInstrumentId is required: the checkout session has a total to charge',
        },
      });
    });

    it('refuses a direct payment without a card in its own words', () => {
      expect(preparePaymentRequest({ amount: 2500, store: store('flow_default') })).toMatchObject({
        missing: 'card',
        error: { code: 'PAYMENT_INSTRUMENT_REQUIRED', message: 'A payment of more than 0 needs a paymentInstrumentId' },
      });
    });

    it('refuses a card with no flow named and no store default: PAYMENT_FLOW_REQUIRED', () => {
      expect(preparePaymentRequest({ amount: 2500, paymentInstrumentId: 'pi_1', store: store(null) })).toEqual({
        kind: 'rejected',
        missing: 'flow',
        error: {
          kind: 'invalid',
          code: 'PAYMENT_FLOW_REQUIRED',
          message: 'No paymentFlowId given and the store has no default payment flow',
        },
      });
    });

    it('lets a free cart through with neither, and keeps the default flow for its row', () => {
      expect(preparePaymentRequest({ amount: 0, checkoutSessionId: checkout, store: store('flow_default') })).toEqual({
        kind: 'ready',
        means: { paymentInstrumentId: null, paymentFlowId: 'flow_default' },
      });
      expect(preparePaymentRequest({ amount: 0, checkoutSessionId: checkout, store: store(null) })).toEqual({
        kind: 'ready',
        means: { paymentInstrumentId: null, paymentFlowId: null },
      });
    });
  });
});

describe('keyed retry: whether a keyed request has its payment already', () => {
  const scope = { accountId: 'acc_1', mode: 'test' as const };
  const dbWithPayments = (count: number) => {
    const asked: unknown[] = [];
    const db = {
      payment: {
        count: (query: unknown) => {
          asked.push(query);
          return Promise.resolve(count);
        },
      },
    } as unknown as Db;
    return { db, asked };
  };

  it("finds the payment under the key's id, in the caller's account and mode", async () => {
    const { db, asked } = dbWithPayments(1);
    expect(await keyedPaymentExists(db, scope, 'pay_1', 'key-1')).toBe(true);
    expect(asked).toEqual([{ where: { id: 'pay_1', accountId: 'acc_1', mode: 'test' } }]);
  });

  it('is false when no row has that id', async () => {
    expect(await keyedPaymentExists(dbWithPayments(0).db, scope, 'pay_1', 'key-1')).toBe(false);
  });

  it('is false without a key, never reading: a random id has no earlier request', async () => {
    const { db, asked } = dbWithPayments(1);
    expect(await keyedPaymentExists(db, scope, 'pay_1', undefined)).toBe(false);
    expect(asked).toEqual([]);
  });
});
