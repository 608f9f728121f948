-- CreateTable
CREATE TABLE "threeds_sessions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT,
    "customer_id" TEXT,
    "payment_instrument_id" TEXT,
    "payment_id" TEXT,
    "type" TEXT NOT NULL DEFAULT 'customer',
    "status" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "eci" TEXT,
    "authentication_value" TEXT,
    "trans_status" TEXT,
    "ds_trans_id" TEXT,
    "acs_trans_id" TEXT,
    "three_ds_server_trans_id" TEXT,
    "message_version" TEXT,
    "card_brand" TEXT,
    "authentication_type" TEXT,
    "recurring_info" JSONB,
    "token_id" TEXT,
    "challenge_url" TEXT,
    "return_url" TEXT,
    "workflow_id" TEXT,
    "failure_reason" TEXT,
    "expires_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "threeds_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "threeds_sessions_account_id_mode_created_at_idx" ON "threeds_sessions"("account_id", "mode", "created_at");

-- CreateIndex
CREATE INDEX "threeds_sessions_payment_id_idx" ON "threeds_sessions"("payment_id");
