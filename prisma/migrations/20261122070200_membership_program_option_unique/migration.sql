-- One program per price: renewals and switches find a membership's program by the price it bills,
-- so two programs on one price could move a member to the wrong program.
DROP INDEX "membership_programs_option_id_idx";

-- CreateIndex
CREATE UNIQUE INDEX "membership_programs_account_id_mode_option_id_key" ON "membership_programs"("account_id", "mode", "option_id");
