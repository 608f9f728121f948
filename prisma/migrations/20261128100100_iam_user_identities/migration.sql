-- Who an external identity provider's subject is: keyed by (issuer, subject), so a subject is only
-- ever read in the namespace of the provider that issued it (a provider's `usr_…` subject is not
-- the engine user with that id). One subject per user and issuer.
CREATE TABLE "user_identities" (
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "user_identities_pkey" PRIMARY KEY ("issuer", "subject")
);

CREATE UNIQUE INDEX "user_identities_issuer_user_id_key" ON "user_identities"("issuer", "user_id");

ALTER TABLE "user_identities" ADD CONSTRAINT "user_identities_user_id_fkey"
    FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The old single-namespace links are dropped, not carried over: they may have been made from a
-- token whose e-mail the provider never marked verified. Each user is linked again at their next
-- sign-in, by the e-mail their provider vouches for (email_verified: true).
DROP INDEX "users_idp_subject_key";
ALTER TABLE "users" DROP COLUMN "idp_subject";
