-- Idempotency records are no longer deleted after 24 h: their answers are stripped (state
-- 'expired') and the fingerprint stays. The sweep finds the records still holding an answer.
DROP INDEX "idempotency_records_expires_at_idx";
CREATE INDEX "idempotency_records_state_expires_at_idx" ON "idempotency_records"("state", "expires_at");
