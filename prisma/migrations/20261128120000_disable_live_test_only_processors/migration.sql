-- Live processors of the test-only types (the sandbox simulators) would send real customers to a
-- fake acquirer that approves. The API refuses them now; rows made before that are disabled here,
-- never deleted (their payments keep pointing at them). Re-enabling one is refused by the API.
DO $$
DECLARE
  disabled_count integer;
BEGIN
  UPDATE processors
     SET enabled = false, updated_at = now()
   WHERE mode = 'live' AND type IN ('sandbox', 'sandbox_hosted3ds') AND enabled;
  GET DIAGNOSTICS disabled_count = ROW_COUNT;
  RAISE NOTICE 'disabled % live processor(s) of a test-only type (sandbox, sandbox_hosted3ds)', disabled_count;
END
$$;
