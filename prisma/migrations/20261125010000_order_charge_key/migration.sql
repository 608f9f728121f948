-- One order per subscription charge: the order is found by the charge that paid it, so a retried
-- write finds its own order and two charges can never share one.
ALTER TABLE "orders" ADD COLUMN "charge_key" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "orders_charge_key_key" ON "orders"("charge_key");
