-- One row per processor call of a payment (payment, attempt number), written in the statement that
-- reads the card and the processor, before the call goes out. A call run again after its worker
-- died finds the row and knows an earlier try may have charged, whatever its own attempt counter
-- says (a local activity's counter starts again at 1 on another worker).
CREATE TABLE "authorization_claims" (
    "payment_id" TEXT NOT NULL,
    "attempt_number" INTEGER NOT NULL,
    "processor_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "tries" INTEGER NOT NULL DEFAULT 1,
    "settled_tries" INTEGER NOT NULL DEFAULT 0,
    "may_have_charged" BOOLEAN NOT NULL DEFAULT false,
    "claimed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "authorization_claims_pkey" PRIMARY KEY ("payment_id", "attempt_number")
);
