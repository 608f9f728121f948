-- Engine-run 3-D Secure with a real provider: a payment flow names the processor whose 3DS provider
-- authenticates its cards (Adyen's authentication-only flow); a session keeps that processor and the
-- opaque token the provider's challenge redirect brings back, which the engine sends to the provider
-- for the result.
ALTER TABLE "payment_flows" ADD COLUMN "three_ds_provider_processor_id" TEXT;
ALTER TABLE "threeds_sessions" ADD COLUMN "provider_processor_id" TEXT;
ALTER TABLE "threeds_sessions" ADD COLUMN "provider_return_data" TEXT;
