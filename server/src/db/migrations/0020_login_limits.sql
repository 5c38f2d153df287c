-- Sign-in throttling in one atomic step. Failed sign-ins were rows counted
-- before the password check and inserted after it, so concurrent tries all
-- saw the same count and passed together (1,003 failures against a limit of
-- 1,000 with 4 in flight). Now each (tenant, scope, key) has one counter row:
-- a sign-in first takes a slot with an upsert that returns the new count
-- (the row lock orders concurrent tries), is refused beyond the limit, and
-- gives the slot back when the password was right.
CREATE TABLE login_limits (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  scope text NOT NULL CHECK (scope IN ('ip', 'email')),
  key text NOT NULL,
  window_started_at timestamptz NOT NULL DEFAULT now(),
  failures integer NOT NULL CHECK (failures >= 0),
  PRIMARY KEY (tenant_id, scope, key)
);

SELECT enable_tenant_isolation('login_limits');

DROP TABLE login_failures;
