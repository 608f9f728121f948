-- At most one live portal login code per (store, e-mail): the primary key holds the rule. A new
-- login points the row at its own code (INSERT … ON CONFLICT DO UPDATE), so every earlier code of
-- that e-mail stops working at once, however many logins run together.
CREATE TABLE "portal_login_live_codes" (
    "store_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "login_code_id" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "portal_login_live_codes_pkey" PRIMARY KEY ("store_id", "email")
);

CREATE UNIQUE INDEX "portal_login_live_codes_login_code_id_key" ON "portal_login_live_codes"("login_code_id");

ALTER TABLE "portal_login_live_codes" ADD CONSTRAINT "portal_login_live_codes_login_code_id_fkey"
    FOREIGN KEY ("login_code_id") REFERENCES "portal_login_codes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Codes already sent: only the newest unconsumed one of each (store, e-mail) stays usable.
INSERT INTO "portal_login_live_codes" ("store_id", "email", "login_code_id")
SELECT DISTINCT ON ("store_id", "email") "store_id", "email", "id"
  FROM "portal_login_codes"
 WHERE "consumed_at" IS NULL
 ORDER BY "store_id", "email", "created_at" DESC, "id" DESC;
