import Stripe from 'stripe';
import { eventObject, type StripeObject } from './objects';
import type { StripeAccount } from './state';
import { postUntilAccepted, type DeliveryRecord } from '../webhookPost';

/**
 * The simulator's webhook endpoint per account (`POST /_simulator/webhooks {secretKey, url,
 * webhookSecret}`): each event is POSTed as Stripe does, JSON with a `Stripe-Signature` header
 * (`t=<timestamp>,v1=<HMAC-SHA256 of "t.body" with the whsec_ secret>`, made by the SDK's own
 * helper), in order, retried up to 3 times until a 2xx. Without an endpoint events are only kept.
 */
export interface StripeDelivery extends DeliveryRecord {
  eventId: string;
  type: string;
  url?: string;
}

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

  private deliver(target: { url: string; secret: string }, payload: string, delivery: StripeDelivery) {
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: target.secret }),
    };
    return postUntilAccepted({ url: target.url, headers, body: payload }, delivery, {
      delayMs: this.delayMs,
      stopped: () => this.stopped,
    });
  }
}
