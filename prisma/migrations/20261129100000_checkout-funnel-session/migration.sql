-- A checkout session may belong to a funnel session (fs_): after the hosted page's payment the
-- shopper goes on to the funnel's offers.
ALTER TABLE "checkout_sessions" ADD COLUMN "funnel_session_id" TEXT;
