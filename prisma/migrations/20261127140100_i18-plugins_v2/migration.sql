-- Plugins v2: plugins, their deployments, deployment instances and the routes each instance serves.
CREATE TABLE "plugins" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "sdk_version" TEXT NOT NULL,
    "run_mode" TEXT NOT NULL,
    "manifest" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "plugins_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "plugins_account_id_mode_idx" ON "plugins"("account_id", "mode");
CREATE INDEX "plugins_store_id_idx" ON "plugins"("store_id");

CREATE TABLE "plugin_deployments" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "plugin_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "plugin_deployments_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "plugin_deployments_account_id_mode_idx" ON "plugin_deployments"("account_id", "mode");
CREATE INDEX "plugin_deployments_plugin_id_idx" ON "plugin_deployments"("plugin_id");

CREATE TABLE "plugin_deployment_instances" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "store_id" TEXT NOT NULL,
    "deployment_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "forked_from_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "plugin_deployment_instances_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "plugin_deployment_instances_account_id_mode_idx" ON "plugin_deployment_instances"("account_id", "mode");
CREATE INDEX "plugin_deployment_instances_deployment_id_idx" ON "plugin_deployment_instances"("deployment_id");

CREATE TABLE "plugin_routes" (
    "id" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "handler" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "plugin_routes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "plugin_routes_instance_id_method_path_key" ON "plugin_routes"("instance_id", "method", "path");

ALTER TABLE "plugin_deployments" ADD CONSTRAINT "plugin_deployments_plugin_id_fkey" FOREIGN KEY ("plugin_id") REFERENCES "plugins"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "plugin_deployment_instances" ADD CONSTRAINT "plugin_deployment_instances_deployment_id_fkey" FOREIGN KEY ("deployment_id") REFERENCES "plugin_deployments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "plugin_routes" ADD CONSTRAINT "plugin_routes_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "plugin_deployment_instances"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
