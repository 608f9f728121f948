-- A retried activity recognises its own committed write: the subscription row remembers the key of
-- the last state write applied to it, and a card reattempt reservation carries its charge key.
ALTER TABLE "subscriptions" ADD COLUMN "last_state_key" TEXT;
ALTER TABLE "card_reattempts" ADD COLUMN "charge_key" TEXT;
CREATE UNIQUE INDEX "card_reattempts_charge_key_key" ON "card_reattempts"("charge_key");
