-- The code of a deployment, written by the builder's deploy.
ALTER TABLE "plugin_deployments" ADD COLUMN "source" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "plugin_deployments" ADD COLUMN "source_revision" INTEGER NOT NULL DEFAULT 0;

-- Builder sessions: short-lived tokens scoped to one deployment and a set of permissions (hash only).
CREATE TABLE "builder_sessions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "plugin_id" TEXT NOT NULL,
    "deployment_id" TEXT NOT NULL,
    "permissions" TEXT[],
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "builder_sessions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "builder_sessions_token_hash_key" ON "builder_sessions"("token_hash");
CREATE INDEX "builder_sessions_deployment_id_idx" ON "builder_sessions"("deployment_id");
