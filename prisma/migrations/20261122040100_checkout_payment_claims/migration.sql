-- CreateTable
CREATE TABLE "checkout_payment_claims" (
    "checkout_session_id" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'held',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "checkout_payment_claims_pkey" PRIMARY KEY ("checkout_session_id")
);
