-- CreateTable
CREATE TABLE "customer_default_payment_methods" (
    "customer_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "payment_method_id" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "customer_default_payment_methods_pkey" PRIMARY KEY ("customer_id")
);

-- CreateIndex
CREATE INDEX "customer_default_payment_methods_account_id_mode_idx" ON "customer_default_payment_methods"("account_id", "mode");

-- AddForeignKey
ALTER TABLE "customer_default_payment_methods" ADD CONSTRAINT "customer_default_payment_methods_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
