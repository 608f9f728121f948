-- The hosted payment page: where the shopper goes after paying or cancelling, the shopper's
-- language, and each line's title per language.
ALTER TABLE "checkout_sessions" ADD COLUMN "success_url" TEXT;
ALTER TABLE "checkout_sessions" ADD COLUMN "cancel_url" TEXT;
ALTER TABLE "checkout_sessions" ADD COLUMN "locale" TEXT;
ALTER TABLE "checkout_session_line_items" ADD COLUMN "title_trans" JSONB;
