-- One customer per (account, mode, store, lower-cased e-mail).
-- E-mails are stored lower-cased; rows written before that rule are lower-cased here. Rows that
-- then collide are NOT merged automatically (their orders, cards and subscriptions would have to
-- move, a business decision): the migration stops, rolled back whole, naming the duplicates.
UPDATE "customers" SET "email" = lower("email") WHERE "email" <> lower("email");

DO $$
DECLARE
  duplicate_groups INTEGER;
  examples TEXT;
BEGIN
  SELECT count(*) INTO duplicate_groups
    FROM (SELECT 1 FROM "customers" GROUP BY "account_id", "mode", "store_id", "email" HAVING count(*) > 1) AS groups;
  IF duplicate_groups > 0 THEN
    SELECT string_agg(ids, '; ') INTO examples
      FROM (
        SELECT '[' || string_agg("id", ', ' ORDER BY "created_at", "id") || ']' AS ids
          FROM "customers"
         GROUP BY "account_id", "mode", "store_id", "email"
        HAVING count(*) > 1
         ORDER BY min("created_at")
         LIMIT 5
      ) AS groups;
    RAISE EXCEPTION 'customers: % group(s) of customers share (account, mode, store, lower-cased e-mail), e.g. %. Merge each group into one customer (move its orders, checkout sessions, cards, subscriptions and memberships, then delete the others) and run the migrations again.', duplicate_groups, examples;
  END IF;
END $$;

ALTER TABLE "customers" ADD CONSTRAINT "customers_email_lower_case" CHECK ("email" = lower("email"));

-- NULLS NOT DISTINCT (PostgreSQL 15+): account-level customers (no store) are unique per e-mail too.
CREATE UNIQUE INDEX "customers_account_id_mode_store_id_email_key" ON "customers"("account_id", "mode", "store_id", "email") NULLS NOT DISTINCT;

-- Last four characters of newly minted API keys; null for existing keys (only their hash is stored).
ALTER TABLE "api_keys" ADD COLUMN "last4" TEXT;
