-- Funnels (issue 18): funnels with their step graph, funnel sessions (projection of the
-- funnelSessionWorkflow), one answer per (session, offer step), and step tracking events.
CREATE TABLE "funnels" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "steps" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "funnels_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "funnels_account_id_mode_store_id_idx" ON "funnels"("account_id", "mode", "store_id");

CREATE TABLE "funnel_sessions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "funnel_id" TEXT NOT NULL,
    "customer_id" TEXT,
    "status" TEXT NOT NULL,
    "current_step_id" TEXT NOT NULL,
    "checkout_payment_id" TEXT,
    "idle_timeout_ms" INTEGER NOT NULL,
    "ended_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "funnel_sessions_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "funnel_sessions_account_id_mode_funnel_id_idx" ON "funnel_sessions"("account_id", "mode", "funnel_id");

-- One answer per offer step of a session: ten concurrent accepts make one row, so one charge.
CREATE TABLE "funnel_offer_answers" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "step_id" TEXT NOT NULL,
    "accept" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "payment_id" TEXT,
    "order_id" TEXT,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "funnel_offer_answers_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "funnel_offer_answers_session_id_step_id_key" ON "funnel_offer_answers"("session_id", "step_id");

CREATE TABLE "funnel_step_events" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "funnel_id" TEXT NOT NULL,
    "step_id" TEXT NOT NULL,
    "session_id" TEXT,
    "event_type" TEXT NOT NULL,
    "device_type" TEXT,
    "environment" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "funnel_step_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "funnel_step_events_account_id_mode_funnel_id_step_id_idx"
    ON "funnel_step_events"("account_id", "mode", "funnel_id", "step_id");
CREATE INDEX "funnel_step_events_session_id_idx" ON "funnel_step_events"("session_id");
