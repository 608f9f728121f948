-- The checkout expiry sweep looks for open sessions past their expiry, oldest first.
CREATE INDEX "checkout_sessions_status_expires_at_idx" ON "checkout_sessions"("status", "expires_at");
