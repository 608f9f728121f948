import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createActivities } from '../../../activities';
import { paymentStateQuery } from '../../../workflows/payments/messages';
import { defaultAuthenticationTimeoutMinutes } from '../../../workflows/payments/stepUp';
import { paymentWorkflow } from '../../../workflows/payments/payment';
import { startHarness, type Harness } from '../../helpers/harness';
import { createTimeSkippingEnv, withWorker } from '../../helpers/timeSkipping';
import { until } from '../../helpers/until';
import { ok } from '../../integration/commerce/commerceHelpers';
import { checkoutPaymentInput, createPaymentTenant, netCharged } from '../../integration/payments/paymentsFixtures';
import { submitAuthenticationPage } from '../../integration/payments/stepUpHelpers';

const challengeCard = '4000000000003220';
const minute = 60_000;

/**
 * The shopper who never comes back from a processor's authentication page, end to end but for the
 * clock: the payment workflow runs in a time-skipping environment with the real activities, the
 * run's Postgres and the sandbox acquirer (a `sandbox_hosted3ds` processor keeps the authorization
 * pending at its page), so the flow's default wait of 15 minutes passes at once, and what the engine
 * does when it ends (ask the processor once more, cancel under the attempt's key, fail the payment)
 * is done for real against the acquirer.
 */
describe('an abandoned step-up (time skipping, real activities, Postgres, sandbox acquirer)', () => {
  let harness: Harness;
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    harness = await startHarness();
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
    await harness?.stop();
  });

  it('fails authentication_timeout after the flow’s default wait, cancels at the processor; a late approve charges nothing', async () => {
    const t = await createPaymentTenant(harness, { processors: 2 });
    const [hosted, fallback] = t.processorIds as [string, string];
    await ok(harness, 'POST', '/processors/update', t.token, {
      processorId: hosted,
      updatedData: { type: 'sandbox_hosted3ds' },
    });
    const input = await checkoutPaymentInput(t, challengeCard);
    const activities = createActivities({
      db: harness.db,
      logger: harness.logger,
      config: harness.config,
      sandboxUrl: harness.sandboxUrl,
      temporal: env.client,
    });

    await withWorker(env, activities, async (taskQueue) => {
      const handle = await env.client.workflow.start(paymentWorkflow, {
        workflowId: input.paymentId,
        taskQueue,
        args: [input],
      });
      const waiting = await until(async () => {
        const state = await handle.query(paymentStateQuery);
        return state.stepUp ? state.stepUp : undefined;
      });
      const startedAt = Number(await env.currentTimeMs());
      const outcome = await handle.result();
      expect(outcome).toMatchObject({ kind: 'payment', status: 'failed', declineCode: 'authentication_timeout' });
      expect(Number(await env.currentTimeMs()) - startedAt).toBeGreaterThanOrEqual(
        defaultAuthenticationTimeoutMinutes * minute - minute,
      );

      // The shopper approves at the acquirer's page after the engine canceled: nothing charges.
      const late = await submitAuthenticationPage(waiting.action.url, 'approve');
      expect(late.status).toBe(303);
    });

    const row = await harness.db.payment.findUniqueOrThrow({ where: { id: input.paymentId } });
    expect(row).toMatchObject({ status: 'failed', declineCode: 'authentication_timeout' });
    const [pending] = await t.ledger(hosted, { reference: input.paymentId, operation: 'authorize' });
    expect(pending).toMatchObject({ outcome: 'requires_action' });
    expect(netCharged(await t.ledger(hosted, { reference: input.paymentId }))).toBe(0);
    expect(await t.ledger(hosted, { reference: input.paymentId, operation: 'reversal' })).toEqual([
      expect.objectContaining({ outcome: 'succeeded', code: 'nothing_to_reverse' }),
    ]);
    // No cascade after a step-up: the second processor was never asked.
    expect(await t.ledger(fallback)).toEqual([]);
  });
});
