import type { Response } from 'express';
import { DomainError } from '../../errors';
import type { PaymentOutcome } from '../../payments/workflowTypes';
import { ApiError } from '../core/errors';

/**
 * A declined payment: HTTP 402 in the second error shape (ErrorBody with data) `{code, message, data}`. `code` is
 * the stable decline code (`card_declined`, `blocked_by_rule`, …); `data` names the payment, which
 * stays recorded with its attempts.
 */
export class PaymentDeclinedError extends ApiError {
  constructor(
    message: string,
    code: string,
    readonly data: Record<string, unknown>,
  ) {
    super(402, code, message);
    this.name = 'PaymentDeclinedError';
  }

  override body() {
    return { ...super.body(), data: this.data };
  }
}

/**
 * Turns a payment workflow's answer into the HTTP answer: a refusal is thrown as its domain error
 * (toApiError gives its status), a decline is 402, `processing` at the deadline is 202 (poll
 * GET /payments/{id}), anything else is 200.
 */
export function answerPayment(res: Response, outcome: PaymentOutcome) {
  if (outcome.kind === 'rejected') throw DomainError.from(outcome.error);
  if (outcome.status === 'failed') {
    const code = outcome.declineCode ?? 'payment_declined';
    throw new PaymentDeclinedError(outcome.declineMessage ?? 'The payment was declined', code, {
      paymentId: outcome.paymentId,
      status: outcome.status,
      declineCode: code,
      amount: outcome.amount,
      currency: outcome.currency,
    });
  }
  if (outcome.status === 'processing') res.status(202);
  return {
    order: outcome.order,
    payment: { id: outcome.paymentId, status: outcome.status, amount: outcome.amount, currency: outcome.currency },
    redirectUrl: outcome.redirectUrl,
  };
}
