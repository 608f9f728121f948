import { continueAsNew, proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { domainRecheck } from '../shared/activityOptions';

const { recheckDomains } = proxyActivities<Activities>(domainRecheck);

export const domainRecheckWorkflowId = 'custom-domain-rechecker';

/**
 * Checks the custom domains' DNS TXT records again every hour (a record removed after
 * verification stops the domain serving hosted pages; a record published late verifies it);
 * restarts its history every 2 days.
 */
export async function domainRecheckWorkflow(): Promise<void> {
  for (let round = 0; round < 48; round++) {
    // Waits first: a domain is checked when it is registered and verified; the rounds catch changes later.
    await sleep('1 hour');
    try {
      await recheckDomains();
    } catch {
      // The next round tries again; one failed round must not end the rechecker.
    }
  }
  await continueAsNew<typeof domainRecheckWorkflow>();
}
