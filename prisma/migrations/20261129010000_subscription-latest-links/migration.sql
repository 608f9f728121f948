-- A subscription charge's payment and order name their subscription (the subscriptionId filters of
-- payments/list and orders/list, a subscription's latestOrderId and latestPaymentId), and the
-- payment names the order it paid.
ALTER TABLE "payments" ADD COLUMN "subscription_id" TEXT;
ALTER TABLE "orders" ADD COLUMN "subscription_id" TEXT;

-- Charges recorded before: their order's source is `subscription:<id>` and it names its payment.
UPDATE "orders" SET "subscription_id" = substring("source" FROM 14) WHERE "source" LIKE 'subscription:%';
UPDATE "payments" AS p
SET "subscription_id" = o."subscription_id", "order_id" = COALESCE(p."order_id", o."id")
FROM "orders" AS o
WHERE o."payment_id" = p."id" AND o."subscription_id" IS NOT NULL;

CREATE INDEX "payments_subscription_id_created_at_idx" ON "payments"("subscription_id", "created_at");
CREATE INDEX "orders_subscription_id_created_at_idx" ON "orders"("subscription_id", "created_at");
