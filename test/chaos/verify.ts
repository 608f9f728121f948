import type { Db } from '../../src/db/prisma';
import type { PaymentRun } from './client';
import type { ChaosCard, ChaosTenant } from './tenant';

export interface ChaosPayment {
  tenant: ChaosTenant;
  card: ChaosCard;
  amount: number;
  run?: PaymentRun;
}

export interface Verdict {
  succeeded: number;
  failed: number;
  needsReview: number;
  /** Payments whose net charge at the acquirers (approved authorizations minus reversals, A and B together) exceeds their amount. */
  doubleCharges: string[];
  /** Money and records that disagree: charged but not recorded as paid (and not flagged for review), recorded as paid but not charged, or no payment for an answered key. */
  lost: string[];
  /** The client's final answer disagrees with the database. */
  mismatches: string[];
  /** Not final in the database, or never final for the client. */
  stuck: string[];
  final5xx: number;
}

interface LedgerEntry {
  operation: string;
  outcome: string;
  amount: number;
  reference: string;
}

/** Net charge per payment id over the tenants' acquirer ledgers (both processors). */
async function netChargeByPayment(sandboxUrl: string, tenants: ChaosTenant[]): Promise<Map<string, number>> {
  const net = new Map<string, number>();
  for (const merchantId of tenants.flatMap((tenant) => tenant.acquirerMerchantIds)) {
    const answer = await fetch(`${sandboxUrl}/acquirer/ledger?${new URLSearchParams({ merchantId }).toString()}`);
    const { entries } = (await answer.json()) as { entries: LedgerEntry[] };
    for (const entry of entries) {
      const sign =
        entry.operation === 'authorize' && entry.outcome === 'approved'
          ? 1
          : entry.operation === 'reversal' && entry.outcome === 'succeeded'
            ? -1
            : 0;
      net.set(entry.reference, (net.get(entry.reference) ?? 0) + sign * entry.amount);
    }
  }
  return net;
}

/** Compares what the clients were told, what the database recorded and what the acquirers charged. */
export async function verify(
  db: Db,
  sandboxUrl: string,
  tenants: ChaosTenant[],
  payments: ChaosPayment[],
): Promise<Verdict> {
  const net = await netChargeByPayment(sandboxUrl, tenants);
  const rows = await db.payment.findMany({
    where: { accountId: { in: tenants.map((tenant) => tenant.merchant.accountId) } },
  });
  return judge(rows, net, payments);
}

export interface PaymentRow {
  id: string;
  status: string;
  amount: number;
  metadata: unknown;
}

/** The verdict from the three sources: client runs, database rows, net charge per payment id. */
export function judge(
  rows: PaymentRow[],
  net: Map<string, number>,
  payments: Pick<ChaosPayment, 'card' | 'run'>[],
): Verdict {
  const verdict: Verdict = {
    succeeded: 0,
    failed: 0,
    needsReview: 0,
    doubleCharges: [],
    lost: [],
    mismatches: [],
    stuck: [],
    final5xx: 0,
  };
  const answered = new Set<string>();

  for (const payment of payments) {
    const run = payment.run;
    if (run && run.finalHttp >= 500) verdict.final5xx++;
    if (!run?.paymentId || !run.status)
      verdict.stuck.push(
        `${run?.paymentId ?? 'no payment id'} (${payment.card}): last answer ${run?.finalHttp} ${run?.finalCode ?? ''}`,
      );
    if (run?.paymentId) answered.add(run.paymentId);
  }
  for (const row of rows) {
    const charged = net.get(row.id) ?? 0;
    const review = (row.metadata as { review?: unknown } | null)?.review !== undefined;
    if (row.status === 'succeeded') verdict.succeeded++;
    else if (row.status === 'failed') verdict.failed++;
    else verdict.stuck.push(`${row.id} ${row.status}`);
    if (review) verdict.needsReview++;
    if (charged > row.amount) verdict.doubleCharges.push(`${row.id} charged ${charged} of ${row.amount}`);
    else if (row.status === 'succeeded' && charged !== row.amount)
      verdict.lost.push(`${row.id} succeeded, charged ${charged}`);
    else if (row.status === 'failed' && charged > 0 && !review)
      verdict.lost.push(`${row.id} failed, charged ${charged}`);
    if (!answered.has(row.id)) verdict.mismatches.push(`${row.id} ${row.status}: no client was answered with it`);
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const payment of payments) {
    const run = payment.run;
    if (!run?.paymentId) continue;
    const row = byId.get(run.paymentId);
    if (!row) verdict.lost.push(`${run.paymentId}: answered, not in the database`);
    else if (run.status && row.status !== run.status)
      verdict.mismatches.push(`${run.paymentId}: client heard ${run.status}, database has ${row.status}`);
  }
  // Charges whose reference is no payment of these tenants at all.
  for (const [reference, charged] of net)
    if (charged > 0 && !byId.has(reference)) verdict.lost.push(`${reference}: charged ${charged}, no payment`);
  return verdict;
}
