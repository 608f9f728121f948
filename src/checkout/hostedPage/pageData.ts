import type { Db } from '../../db/prisma';
import { currencyExponent, formatMinorUnits } from '../../domain/money';

/** Everything the hosted page shows of a session, read without an API key: the session id names it, the signed link admits it. */
export async function loadHostedSession(db: Db, sessionId: string) {
  return db.checkoutSession.findUnique({
    where: { id: sessionId },
    include: {
      store: true,
      customer: true,
      lineItems: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
      order: true,
    },
  });
}

export type HostedSession = NonNullable<Awaited<ReturnType<typeof loadHostedSession>>>;

/** The status the shopper sees: an open session past its expiry is expired, as the API shows it. */
export function shopperStatus(session: { status: string; expiresAt: Date }, now = Date.now()) {
  if (session.status === 'open' && session.expiresAt.getTime() <= now) return 'expired';
  return session.status as 'open' | 'paid' | 'expired';
}

/**
 * The shopper's language: the session's `locale` when the merchant set one, else the browser's
 * first Accept-Language entry, else English. Always a well-formed tag Intl accepts.
 */
export function shopperLanguage(sessionLocale: string | null, acceptLanguage: string | undefined): string {
  const candidates = [sessionLocale, ...(acceptLanguage ?? '').split(',').map((part) => part.split(';')[0]!.trim())];
  for (const candidate of candidates) {
    if (!candidate || candidate === '*') continue;
    try {
      return Intl.getCanonicalLocales(candidate)[0]!;
    } catch {
      // Not a language tag: try the next one.
    }
  }
  return 'en';
}

/** A line's title in the shopper's language (`de-AT` falls back to `de`), else the product's own name. */
export function lineTitle(line: { productName: string; titleTrans: unknown }, language: string): string {
  const titles = (line.titleTrans ?? {}) as Record<string, string>;
  const base = language.split('-')[0]!;
  return titles[language] ?? titles[base] ?? line.productName;
}

/** An amount in minor units formatted for the shopper's locale; exact (the decimal string, never a float). */
export function formatAmount(amount: number, currency: string, language: string): string {
  return currencyFormat(currency, language).format(formatMinorUnits(amount, currency) as `${number}`);
}

/** A formatter is dear to build (locale data) and cheap to reuse: one per language and currency. */
const currencyFormats = new Map<string, Intl.NumberFormat>();

function currencyFormat(currency: string, language: string): Intl.NumberFormat {
  const key = `${language} ${currency}`;
  let format = currencyFormats.get(key);
  if (!format) {
    const digits = currencyExponent(currency);
    format = new Intl.NumberFormat(language, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    if (currencyFormats.size >= 200) currencyFormats.clear();
    currencyFormats.set(key, format);
  }
  return format;
}

/** The promotion codes a session carries, in its order, with their promotion's name. */
export async function sessionPromotions(db: Db, promotionCodeIds: string[]) {
  if (promotionCodeIds.length === 0) return [];
  const codes = await db.promotionCode.findMany({
    where: { id: { in: promotionCodeIds } },
    include: { promotion: true },
  });
  return promotionCodeIds.flatMap((id) => {
    const code = codes.find((candidate) => candidate.id === id);
    return code ? [{ code: code.code, name: code.promotion.name }] : [];
  });
}

/** What the page template renders: plain strings, escaped by the template library. */
export async function pageView(db: Db, session: HostedSession, language: string) {
  const money = (amount: number) => formatAmount(amount, session.currency, language);
  return {
    language,
    storeName: session.store.name,
    email: session.customer.email,
    lines: session.lineItems.map((line) => ({
      title: lineTitle(line, language),
      quantity: line.quantity,
      unitAmount: money(line.unitAmount),
      amount: money(line.amountSubtotal),
    })),
    promotions: await sessionPromotions(db, session.promotionCodeIds),
    subtotal: money(session.subtotal),
    discountTotal: session.discountTotal > 0 ? money(session.discountTotal) : null,
    total: money(session.total),
    charges: session.total > 0,
    cancelUrl: session.cancelUrl,
    successUrl: session.successUrl,
  };
}
