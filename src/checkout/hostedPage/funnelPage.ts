import type { Db } from '../../db/prisma';
import { isOfferStep, type FunnelStep } from '../../domain/funnelGraph';
import type { FunnelSessionView } from '../../funnels/sessionTypes';
import { formatAmount } from './pageData';

/**
 * The funnel pages of the hosted checkout: what the page of the funnel session's current step
 * shows. The session's workflow holds the graph it started with; its steps keep their ids when the
 * funnel is edited (docs/funnels.md), so the funnel's row names the step the session stands on.
 */
export type FunnelStepPage =
  | { kind: 'offer'; step: FunnelStep; title: string; amount: string; offerType: 'upsell' | 'downsell' }
  | { kind: 'processing' }
  | { kind: 'final'; bought: { title: string; amount: string }[] }
  | { kind: 'unavailable' };

/** The offer's title in the shopper's language (`de-AT` falls back to `de`), else the step's name, else the product's. */
export function offerTitle(step: FunnelStep, productName: string, language: string): string {
  const titles = step.titleTrans ?? {};
  return titles[language] ?? titles[language.split('-')[0]!] ?? step.name ?? productName;
}

async function offerOf(db: Db, scope: { accountId: string; mode: 'test' | 'live' }, step: FunnelStep) {
  if (!step.priceId) return null;
  return db.price.findFirst({
    where: { id: step.priceId, ...scope },
    include: { variant: { include: { product: true } } },
  });
}

/** The page of the step the funnel session stands on now, in the shopper's language. */
export async function funnelStepPage(
  db: Db,
  scope: { accountId: string; mode: 'test' | 'live' },
  view: FunnelSessionView,
  language: string,
): Promise<FunnelStepPage> {
  const funnel = await db.funnel.findFirst({ where: { id: view.funnelId, ...scope } });
  const steps = (funnel?.steps ?? []) as unknown as FunnelStep[];
  const current = steps.find((step) => step.id === view.currentStepId);
  if (view.status === 'active' && current && isOfferStep(current.type)) {
    // An accept still charging at the page's deadline: its answer row says so until the payment ends.
    const answer = await db.funnelOfferAnswer.findUnique({
      where: { sessionId_stepId: { sessionId: view.sessionId, stepId: current.id } },
    });
    if (answer?.status === 'processing') return { kind: 'processing' };
    const price = await offerOf(db, scope, current);
    if (!price) return { kind: 'unavailable' };
    return {
      kind: 'offer',
      step: current,
      title: offerTitle(current, price.variant.product.name, language),
      amount: formatAmount(price.unitAmount, price.currency, language),
      offerType: current.type as 'upsell' | 'downsell',
    };
  }
  const bought = [];
  for (const answer of view.answers) {
    if (answer.status !== 'succeeded' || answer.amount === null || answer.currency === null) continue;
    const step = steps.find((candidate) => candidate.id === answer.stepId);
    const price = step ? await offerOf(db, scope, step) : null;
    const title = step && price ? offerTitle(step, price.variant.product.name, language) : 'Offer';
    bought.push({ title, amount: formatAmount(answer.amount, answer.currency, language) });
  }
  return { kind: 'final', bought };
}
