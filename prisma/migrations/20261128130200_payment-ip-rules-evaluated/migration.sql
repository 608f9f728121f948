-- Whether the account's IP block rules could be checked for a payment: they need the cardholder's
-- IP (the request's customerIp). true = checked; false = rules in force but no IP, so they did not
-- match; NULL = no IP rule in force (and every payment made before this column existed).
ALTER TABLE "payments" ADD COLUMN "ip_rules_evaluated" BOOLEAN;
