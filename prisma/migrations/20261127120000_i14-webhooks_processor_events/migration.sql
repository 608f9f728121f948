-- Processor webhook events: one row per (processor, vendor event id), so a redelivered or
-- concurrently delivered event has one effect (the effect is written in the row's transaction).
CREATE TABLE "processor_webhook_events" (
    "id" TEXT NOT NULL,
    "processor_id" TEXT NOT NULL,
    "vendor_event_id" TEXT NOT NULL,
    "vendor_type" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "effect" TEXT NOT NULL,
    "payment_id" TEXT,
    "refund_id" TEXT,
    "received_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "processor_webhook_events_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "processor_webhook_events_processor_id_vendor_event_id_key"
    ON "processor_webhook_events"("processor_id", "vendor_event_id");
CREATE INDEX "processor_webhook_events_payment_id_idx" ON "processor_webhook_events"("payment_id");

-- Webhooks name a payment by the processor's reference (Stripe's PaymentIntent, Adyen's pspReference).
CREATE INDEX "payments_processor_id_processor_reference_idx" ON "payments"("processor_id", "processor_reference");
CREATE INDEX "payment_attempts_processor_id_processor_reference_idx"
    ON "payment_attempts"("processor_id", "processor_reference");
