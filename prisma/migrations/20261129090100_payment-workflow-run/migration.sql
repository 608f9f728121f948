-- The workflow run that wrote the payment row. A payment's first workflow task runs its steps as
-- local activities; when that task is lost (its worker died) the same run does them again, and
-- prepare must resume its own run's row even when that run already decided it.
ALTER TABLE "payments" ADD COLUMN "workflow_run_id" TEXT;
