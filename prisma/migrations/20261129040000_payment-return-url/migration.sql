-- Processor-hosted 3-D Secure (step-up): the caller's returnUrl, where the shopper's browser is sent
-- once the processor's authentication page is over (read by the engine's return link).
ALTER TABLE "payments" ADD COLUMN "return_url" TEXT;
