import { assertMinorUnits, percentageOf } from './money';

/** Largest amount a Postgres INTEGER column holds; totals beyond it are refused, never wrapped. */
export const maxAmount = 2_147_483_647;

export interface TotalsLine {
  unitAmount: number;
  quantity: number;
}

export type TotalsPromotion =
  | { discountType: 'percentage'; percentBasisPoints: number }
  | { discountType: 'fixed_amount'; amountOff: number; currency: string };

export interface CheckoutTotals {
  lineSubtotals: number[];
  subtotal: number;
  /** Discount of each promotion, in the order given. */
  discounts: number[];
  discountTotal: number;
  total: number;
}

export class TotalsError extends Error {}

/**
 * Subtotal, discounts and total in integer minor units of one currency. Promotions apply in the
 * order given, each to what is left after the previous ones, so the total never goes below 0.
 * Percentages are basis points rounded half up per promotion; fixed amounts must be in the
 * session currency.
 */
export function computeCheckoutTotals(
  currency: string,
  lines: TotalsLine[],
  promotions: TotalsPromotion[] = [],
): CheckoutTotals {
  const lineSubtotals = lines.map((line) => {
    assertMinorUnits(line.unitAmount);
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1)
      throw new TotalsError(`quantity must be a positive integer, got ${line.quantity}`);
    return checked(line.unitAmount * line.quantity);
  });
  const subtotal = checked(lineSubtotals.reduce((sum, amount) => sum + amount, 0));
  let remaining = subtotal;
  const discounts = promotions.map((promotion) => {
    let discount: number;
    if (promotion.discountType === 'percentage') {
      discount = percentageOf(remaining, promotion.percentBasisPoints);
    } else {
      if (promotion.currency.toUpperCase() !== currency.toUpperCase()) {
        throw new TotalsError(`a fixed ${promotion.currency} discount cannot apply to a ${currency} checkout`);
      }
      discount = Math.min(assertMinorUnits(promotion.amountOff), remaining);
    }
    remaining -= discount;
    return discount;
  });
  return { lineSubtotals, subtotal, discounts, discountTotal: subtotal - remaining, total: remaining };
}

function checked(amount: number): number {
  if (!Number.isSafeInteger(amount) || amount > maxAmount)
    throw new TotalsError(`amount ${amount} exceeds the maximum of ${maxAmount} minor units`);
  return amount;
}
