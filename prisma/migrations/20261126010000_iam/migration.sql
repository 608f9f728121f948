-- Identity management: users, account members, partner staff and their audit events.
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "idp_subject" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "users_pkey" PRIMARY KEY ("id"),
    -- Stored lower-cased, so the unique index below is case-insensitive.
    CONSTRAINT "users_email_lower_case" CHECK ("email" = lower("email"))
);
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");
CREATE UNIQUE INDEX "users_idp_subject_key" ON "users"("idp_subject");

-- The primary key is the rule "one membership per user and account": concurrent adds cannot duplicate.
CREATE TABLE "account_members" (
    "account_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "account_members_pkey" PRIMARY KEY ("account_id", "user_id"),
    CONSTRAINT "account_members_role" CHECK ("role" IN ('org:admin', 'org:member'))
);
CREATE INDEX "account_members_user_id_idx" ON "account_members"("user_id");
ALTER TABLE "account_members" ADD CONSTRAINT "account_members_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "account_members" ADD CONSTRAINT "account_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "partner_staff" (
    "partner_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "partner_staff_pkey" PRIMARY KEY ("partner_id", "user_id"),
    CONSTRAINT "partner_staff_role" CHECK ("role" IN ('partner:admin', 'partner:member'))
);
CREATE INDEX "partner_staff_user_id_idx" ON "partner_staff"("user_id");
ALTER TABLE "partner_staff" ADD CONSTRAINT "partner_staff_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "partner_staff" ADD CONSTRAINT "partner_staff_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "iam_events" (
    "id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "actor_user_id" TEXT,
    "account_id" TEXT,
    "partner_id" TEXT,
    "properties" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "iam_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "iam_events_account_id_created_at_idx" ON "iam_events"("account_id", "created_at");
CREATE INDEX "iam_events_partner_id_created_at_idx" ON "iam_events"("partner_id", "created_at");
