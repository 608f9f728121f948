-- The last failed attempt of an endpoint: a failure long after the previous one starts a new
-- streak, so a streak left open before an idle period cannot disable the endpoint at once.
ALTER TABLE "webhook_endpoints" ADD COLUMN "last_failed_at" TIMESTAMP(3);
