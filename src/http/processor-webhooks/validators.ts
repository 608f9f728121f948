import { z } from 'zod';
import { idParam } from '../../commerce/schemas';

export const processorWebhookParams = idParam('processorId', 'proc');

/** The vendor's own payload (a Stripe event, an Adyen notification batch): the processor's type verifies and reads it. */
export const processorWebhookBodySchema = z.record(z.string(), z.unknown()).openapi({
  description:
    "The vendor's webhook payload as it sends it (Stripe: an Event; Adyen: a notification batch), verified over its raw bytes",
});

export const processorWebhookReceiptSchema = z
  .object({
    received: z.number().int().openapi({ description: 'Events in the delivery' }),
    applied: z.number().int().openapi({ description: 'Events seen for the first time (recorded and applied)' }),
    duplicates: z.number().int().openapi({ description: 'Events already received before: nothing changed' }),
    notificationResponse: z.literal('[accepted]').optional().openapi({ description: "Adyen's acknowledgement" }),
  })
  .openapi('ProcessorWebhookReceipt');
