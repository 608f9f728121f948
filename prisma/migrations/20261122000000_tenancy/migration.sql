-- CreateEnum
CREATE TYPE "Mode" AS ENUM ('test', 'live');
CREATE TYPE "PartnerKind" AS ENUM ('payfac', 'crm_only');
CREATE TYPE "AccountPlan" AS ENUM ('standard', 'premium');
CREATE TYPE "ApiKeyKind" AS ENUM ('partner', 'crm', 'processing');
CREATE TYPE "ApiKeyStatus" AS ENUM ('active', 'revoked');

-- CreateTable
CREATE TABLE "partners" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" "PartnerKind" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "partners_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "partner_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "external_ref" TEXT,
    "plan" "AccountPlan" NOT NULL DEFAULT 'standard',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "processing_accounts" (
    "id" TEXT NOT NULL,
    "partner_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "store_ids" TEXT[],
    "external_ref" TEXT,
    "mode" "Mode" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "processing_accounts_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "kind" "ApiKeyKind" NOT NULL,
    "mode" "Mode" NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'org:admin',
    "prefix" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" "ApiKeyStatus" NOT NULL DEFAULT 'active',
    "partner_id" TEXT NOT NULL,
    "account_id" TEXT,
    "tpa_id" TEXT,
    "last_used_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "accounts_partner_id_external_ref_key" ON "accounts"("partner_id", "external_ref");
CREATE UNIQUE INDEX "api_keys_token_hash_key" ON "api_keys"("token_hash");
CREATE INDEX "api_keys_account_id_idx" ON "api_keys"("account_id");
CREATE INDEX "api_keys_tpa_id_idx" ON "api_keys"("tpa_id");

-- AddForeignKey
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "processing_accounts" ADD CONSTRAINT "processing_accounts_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "processing_accounts" ADD CONSTRAINT "processing_accounts_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tpa_id_fkey" FOREIGN KEY ("tpa_id") REFERENCES "processing_accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
