import { buildNotification, type AdyenNotificationItem } from '../../../processors/adyen/webhooks';
import type { AdyenSimulatorState } from './state';

/**
 * Sends the simulator's notifications as Adyen does: one signed item per POST to the merchant
 * account's webhook URL, after the API answer, in order, retried until a 2xx (a few times here).
 * Without a configured webhook the items are only recorded.
 */
export interface Delivery {
  eventCode: string;
  pspReference: string;
  url?: string;
  attempts: number;
  /** HTTP status of the last try; undefined while pending or when nothing was configured. */
  status?: number;
  error?: string;
}

const tries = 3;

export class NotificationSender {
  readonly deliveries: Delivery[] = [];
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly state: AdyenSimulatorState,
    private readonly delayMs: number,
  ) {}

  enqueue(merchantAccount: string, items: AdyenNotificationItem[]): void {
    for (const item of items) {
      const delivery: Delivery = { eventCode: item.eventCode, pspReference: item.pspReference, attempts: 0 };
      this.deliveries.push(delivery);
      this.queue = this.queue.then(() => this.deliver(merchantAccount, item, delivery));
    }
  }

  /** Resolves once everything queued so far was delivered or given up. */
  async idle(): Promise<void> {
    await this.queue;
  }

  stop(): void {
    this.stopped = true;
  }

  private async deliver(merchantAccount: string, item: AdyenNotificationItem, delivery: Delivery): Promise<void> {
    const target = this.state.webhookTarget(merchantAccount);
    if (!target) return;
    delivery.url = target.url;
    const body = JSON.stringify(buildNotification([item], target.live, target.hmacKey));
    for (let attempt = 1; attempt <= tries && !this.stopped; attempt++) {
      await sleep(this.delayMs * attempt);
      if (this.stopped) return;
      delivery.attempts = attempt;
      try {
        const response = await fetch(target.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(5_000),
        });
        delivery.status = response.status;
        delete delivery.error;
        await response.arrayBuffer();
        if (response.ok) return;
      } catch (error) {
        delivery.error = (error as Error).message;
      }
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
