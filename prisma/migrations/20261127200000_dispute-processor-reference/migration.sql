-- The processor's own id of a dispute its webhook opened: the dispute's outcome events name it.
ALTER TABLE "disputes" ADD COLUMN "processor_reference" TEXT;
CREATE UNIQUE INDEX "disputes_payment_id_processor_reference_key" ON "disputes"("payment_id", "processor_reference");
