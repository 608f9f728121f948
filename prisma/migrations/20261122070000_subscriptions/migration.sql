-- CreateEnum
CREATE TYPE "SubscriptionStatus" AS ENUM ('trialing', 'active', 'past_due', 'paused', 'canceled');
CREATE TYPE "MembershipStatus" AS ENUM ('trialing', 'active', 'past_due', 'paused', 'canceled');
CREATE TYPE "PortalSessionKind" AS ENUM ('customer', 'offer');

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "status" "SubscriptionStatus" NOT NULL,
    "product_id" TEXT NOT NULL,
    "variant_id" TEXT NOT NULL,
    "option_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL DEFAULT 1,
    "price" INTEGER NOT NULL,
    "interval" TEXT NOT NULL,
    "interval_count" INTEGER NOT NULL DEFAULT 1,
    "billing_anchor_at" TIMESTAMP(3) NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "next_billing_at" TIMESTAMP(3),
    "trial_ends_at" TIMESTAMP(3),
    "paused_until" TIMESTAMP(3),
    "canceled_at" TIMESTAMP(3),
    "cancel_at_period_end" BOOLEAN NOT NULL DEFAULT false,
    "cancel_reason_id" TEXT,
    "skipped_dates" TIMESTAMP(3)[],
    "last_payment_failed_at" TIMESTAMP(3),
    "payment_method_id" TEXT NOT NULL,
    "shipping_address_id" TEXT,
    "paid_orders_count" INTEGER NOT NULL DEFAULT 0,
    "next_order_add_ons" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "membership_programs" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "option_id" TEXT NOT NULL,
    "credits_per_renewal" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "membership_programs_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "memberships" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "program_id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "status" "MembershipStatus" NOT NULL,
    "billing" TEXT NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "renews_at" TIMESTAMP(3),
    "trial_ends_at" TIMESTAMP(3),
    "grace_ends_at" TIMESTAMP(3),
    "canceled_at" TIMESTAMP(3),
    "credits_balance" INTEGER NOT NULL DEFAULT 0,
    "saved_to_date" INTEGER NOT NULL DEFAULT 0,
    "payment_method_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "memberships_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "credit_redemptions" (
    "id" TEXT NOT NULL,
    "membership_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "variant_id" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "credits" INTEGER NOT NULL,
    "saved_amount" INTEGER NOT NULL,
    "order_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "credit_redemptions_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "card_reattempts" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "payment_method_id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "attempted_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "card_reattempts_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "portal_login_codes" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "customer_id" TEXT,
    "code_hash" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "consumed_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "portal_login_codes_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "portal_sessions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "kind" "PortalSessionKind" NOT NULL,
    "customer_id" TEXT,
    "email" TEXT,
    "email_verified" BOOLEAN NOT NULL DEFAULT false,
    "allowed_actions" TEXT[],
    "offer_ref" TEXT,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "portal_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "subscriptions_account_id_mode_created_at_idx" ON "subscriptions"("account_id", "mode", "created_at");
CREATE INDEX "subscriptions_store_id_idx" ON "subscriptions"("store_id");
CREATE INDEX "subscriptions_customer_id_idx" ON "subscriptions"("customer_id");
CREATE INDEX "subscriptions_payment_method_id_idx" ON "subscriptions"("payment_method_id");
CREATE INDEX "membership_programs_account_id_mode_idx" ON "membership_programs"("account_id", "mode");
CREATE INDEX "membership_programs_store_id_idx" ON "membership_programs"("store_id");
CREATE INDEX "membership_programs_option_id_idx" ON "membership_programs"("option_id");
CREATE UNIQUE INDEX "memberships_subscription_id_key" ON "memberships"("subscription_id");
CREATE INDEX "memberships_account_id_mode_idx" ON "memberships"("account_id", "mode");
CREATE INDEX "memberships_customer_id_idx" ON "memberships"("customer_id");
CREATE INDEX "credit_redemptions_membership_id_idx" ON "credit_redemptions"("membership_id");
CREATE INDEX "card_reattempts_payment_method_id_attempted_at_idx" ON "card_reattempts"("payment_method_id", "attempted_at");
CREATE INDEX "portal_login_codes_store_id_email_idx" ON "portal_login_codes"("store_id", "email");
CREATE UNIQUE INDEX "portal_sessions_token_hash_key" ON "portal_sessions"("token_hash");
CREATE INDEX "portal_sessions_account_id_mode_idx" ON "portal_sessions"("account_id", "mode");

-- AddForeignKey
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "membership_programs" ADD CONSTRAINT "membership_programs_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_program_id_fkey" FOREIGN KEY ("program_id") REFERENCES "membership_programs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "credit_redemptions" ADD CONSTRAINT "credit_redemptions_membership_id_fkey" FOREIGN KEY ("membership_id") REFERENCES "memberships"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "card_reattempts" ADD CONSTRAINT "card_reattempts_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "portal_login_codes" ADD CONSTRAINT "portal_login_codes_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "portal_sessions" ADD CONSTRAINT "portal_sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
