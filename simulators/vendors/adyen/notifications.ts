import { buildNotification, type AdyenNotificationItem } from '../../../src/processors/adyen/webhooks';
import type { AdyenSimulatorState } from './state';
import { postUntilAccepted, type DeliveryRecord } from '../webhookPost';

/**
 * Sends the simulator's notifications as Adyen does: one signed item per POST to the merchant
 * account's webhook URL, after the API answer, in order, retried until a 2xx (a few times here).
 * Without a configured webhook the items are only recorded.
 */
export interface Delivery extends DeliveryRecord {
  eventCode: string;
  pspReference: string;
  url?: string;
}

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
    await postUntilAccepted({ url: target.url, headers: { 'content-type': 'application/json' }, body }, delivery, {
      delayMs: this.delayMs,
      stopped: () => this.stopped,
    });
  }
}
