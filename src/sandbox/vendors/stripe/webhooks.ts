import Stripe from 'stripe';
import { eventObject, type StripeObject } from './objects';
import type { StripeAccount } from './state';

/**
 * The simulator's webhook endpoint per account (`POST /_simulator/webhooks {secretKey, url,
 * webhookSecret}`): each event is POSTed as Stripe does, JSON with a `Stripe-Signature` header
 * (`t=<timestamp>,v1=<HMAC-SHA256 of "t.body" with the whsec_ secret>`, made by the SDK's own
 * helper), in order, retried up to 3 times until a 2xx. Without an endpoint events are only kept.
 */
export interface StripeDelivery {
  eventId: string;
  type: string;
  url?: string;
  attempts: number;
  status?: number;
  error?: string;
}

const tries = 3;

export class StripeWebhookSender {
  readonly deliveries: StripeDelivery[] = [];
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly delayMs: number) {}

  send(account: StripeAccount, type: string, object: StripeObject): void {
    const event = eventObject(type, object);
    const delivery: StripeDelivery = { eventId: event.id as string, type, attempts: 0 };
    this.deliveries.push(delivery);
    account.events.push(event);
    const target = account.webhook;
    if (!target) return;
    delivery.url = target.url;
    this.queue = this.queue.then(() => this.deliver(target, JSON.stringify(event), delivery));
  }

  /** Resolves once everything queued so far was delivered or given up. */
  async idle(): Promise<void> {
    await this.queue;
  }

  stop(): void {
    this.stopped = true;
  }

  private async deliver(target: { url: string; secret: string }, payload: string, delivery: StripeDelivery) {
    for (let attempt = 1; attempt <= tries && !this.stopped; attempt++) {
      await sleep(this.delayMs * attempt);
      if (this.stopped) return;
      delivery.attempts = attempt;
      try {
        const response = await fetch(target.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: target.secret }),
          },
          body: payload,
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
