-- Upsell, downsell and order-bump offers (ofr_), distinct from checkout offers (co_).
CREATE TABLE "offers" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "price_id" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL DEFAULT 1,
    "override_amount" INTEGER,
    "override_currency" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "offers_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "offers_account_id_mode_idx" ON "offers"("account_id", "mode");
CREATE INDEX "offers_store_id_idx" ON "offers"("store_id");

-- A bump adds one line to a checkout session, once: the unique index is what holds under concurrency.
ALTER TABLE "checkout_session_line_items" ADD COLUMN "offer_id" TEXT;
CREATE UNIQUE INDEX "checkout_session_line_items_checkout_session_id_offer_id_key"
    ON "checkout_session_line_items"("checkout_session_id", "offer_id");
