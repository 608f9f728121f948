-- AlterTable
ALTER TABLE "idempotency_records" ADD COLUMN "owner_id" TEXT;

-- CreateTable
CREATE TABLE "idempotency_owners" (
    "id" TEXT NOT NULL,
    "heartbeat_at" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "idempotency_owners_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "idempotency_owners_heartbeat_at_idx" ON "idempotency_owners"("heartbeat_at");
