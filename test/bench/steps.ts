import { createActivities } from '../../activities';
import type { ActivityDeps } from '../../activities/deps';
import { newId } from '../../src/domain/ids';
import { planRoute } from '../../src/domain/routing';
import type { createBenchTenant } from './setup';

type Tenant = Awaited<ReturnType<typeof createBenchTenant>>;

/**
 * The payment's steps (prepare, block rules, route, authorize at the sandbox acquirer, finalize,
 * dispatch) called in-process with no HTTP and no Temporal: what the database and acquirer cost.
 */
export function paymentStepsOnly(deps: ActivityDeps) {
  const activities = createActivities(deps);
  return async ({ tenant, session }: { tenant: Tenant; session: { id: string; total: number; currency: string } }) => {
    const input = {
      paymentId: newId('payment'),
      accountId: tenant.merchant.accountId,
      mode: 'test' as const,
      storeId: tenant.storeId,
      customerId: tenant.customerId,
      paymentInstrumentId: tenant.instrumentId,
      amount: session.total,
      currency: session.currency,
      intent: 'purchase' as const,
      initiatedBy: 'customer' as const,
      source: 'checkout' as const,
      paymentFlowId: tenant.flowId,
      checkoutSessionId: session.id,
    };
    const prepared = await activities.preparePayment(input);
    if (prepared.kind !== 'ready') return false;
    if (!prepared.noBlockRules && (await activities.checkBlockRules(input)).blocked) return false;
    const { context } = prepared;
    const plan = planRoute({
      flow: context.flow,
      processors: context.processors,
      currency: input.currency,
      stickyProcessorId: context.stickyProcessorId,
      random: Math.random(),
    });
    const processorId = plan.order[0];
    if (!processorId) return false;
    const attempt = await activities.authorizeAttempt({ ...input, attemptNumber: 1, processorId, capture: true });
    if (attempt.outcome !== 'approved') return false;
    const final = await activities.finalizePayment({
      paymentId: input.paymentId,
      status: 'succeeded',
      processorId,
      processorReference: attempt.processorReference,
      captured: attempt.captured,
      declineCode: null,
      declineCategory: null,
      declineMessage: null,
    });
    await activities.dispatchEvents(final.eventIds);
    return true;
  };
}
