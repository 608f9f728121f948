-- Processor-hosted 3-D Secure (step-up): how long a payment of the flow waits for the shopper at the
-- processor's authentication page before it is canceled there.
ALTER TABLE "payment_flows" ADD COLUMN "authentication_timeout_minutes" INTEGER NOT NULL DEFAULT 15;
ALTER TABLE "payment_flows" ADD CONSTRAINT "payment_flows_authentication_timeout_minutes_range"
  CHECK ("authentication_timeout_minutes" BETWEEN 1 AND 1440);
