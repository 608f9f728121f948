-- Custom domains of stores: one store per hostname and mode, whatever the account (the unique
-- index is what holds when two stores register one hostname at once).
CREATE TABLE "custom_domains" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "verification_token" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "last_error" TEXT,
    "last_checked_at" TIMESTAMP(3),
    "verified_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "custom_domains_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "custom_domains_hostname_mode_key" ON "custom_domains"("hostname", "mode");
CREATE INDEX "custom_domains_account_id_mode_idx" ON "custom_domains"("account_id", "mode");
