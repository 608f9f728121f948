-- E-mails sent because of an event. The unique (event_id, kind) is the claim taken before
-- sending: a retried or repeated dispatch of one event finds it and sends nothing more.
CREATE TABLE "sent_emails" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "claimed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMP(3),
    CONSTRAINT "sent_emails_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "sent_emails_event_id_kind_key" ON "sent_emails"("event_id", "kind");

CREATE INDEX "sent_emails_account_id_mode_store_id_idx" ON "sent_emails"("account_id", "mode", "store_id");
