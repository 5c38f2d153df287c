-- Foundation: the application role, tenants ("clients" in SPEC §7), users,
-- session tokens and login throttling.
--
-- Isolation rule: every tenant-scoped table carries tenant_id in its primary
-- key and in every unique and foreign key (so it can be distributed by
-- tenant_id), and has row-level security enabled *and forced* with a policy
-- on the transaction-local setting app.tenant_id. Requests run as the role
-- intelnotes_app, which is not a superuser and owns nothing.

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'intelnotes_app') THEN
    CREATE ROLE intelnotes_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  NULL; -- another database in the same cluster created it concurrently
END $$;

-- The connecting (owner) role switches to the app role with SET LOCAL ROLE.
DO $$
BEGIN
  IF NOT pg_has_role(current_user, 'intelnotes_app', 'MEMBER') THEN
    EXECUTE format('GRANT intelnotes_app TO %I', current_user);
  END IF;
END $$;

CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;

-- The tenant id of the current transaction, or NULL when none is set.
CREATE FUNCTION app_tenant_id() RETURNS uuid
LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('app.tenant_id', true), '')::uuid
$$;

-- True when the current request may create, edit or delete any tenant.
CREATE FUNCTION app_manages_tenants() RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('app.manage_tenants', true), '') = 'on'
$$;

-- Row-level security, enabled and forced, scoping a table to app.tenant_id.
-- Every tenant-scoped table created from here on goes through this.
CREATE FUNCTION enable_tenant_isolation(VARIADIC tables text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY tables LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id())', t);
  END LOOP;
END $$;

CREATE TABLE tenants (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  code text NOT NULL,
  name text NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  payment_access_link text,
  payment_access_message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT tenants_code_format CHECK (code ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$')
);
CREATE UNIQUE INDEX tenants_code_key ON tenants (code);
CREATE UNIQUE INDEX tenants_single_default ON tenants (is_default) WHERE is_default;

-- Tenant names and payment links are public (clients/info); writes are
-- limited to the tenant itself or a tenant manager.
ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
ALTER TABLE tenants FORCE ROW LEVEL SECURITY;
CREATE POLICY tenants_read ON tenants FOR SELECT USING (true);
CREATE POLICY tenants_update ON tenants FOR UPDATE
  USING (id = app_tenant_id() OR app_manages_tenants())
  WITH CHECK (id = app_tenant_id() OR app_manages_tenants());
CREATE POLICY tenants_insert ON tenants FOR INSERT WITH CHECK (app_manages_tenants());
CREATE POLICY tenants_delete ON tenants FOR DELETE USING (app_manages_tenants());

CREATE TABLE users (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  email text NOT NULL,
  alias text,
  password_hash text NOT NULL,
  is_admin boolean NOT NULL DEFAULT false,
  is_research boolean NOT NULL DEFAULT false,
  asset_id uuid,
  disabled boolean NOT NULL DEFAULT false,
  last_login_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  CONSTRAINT users_email_length CHECK (char_length(email) BETWEEN 3 AND 254)
);
CREATE UNIQUE INDEX users_tenant_email_key ON users (tenant_id, lower(email));

CREATE TABLE sessions (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL,
  token_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  user_agent text,
  ip text,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX sessions_token_key ON sessions (tenant_id, token_hash);
CREATE INDEX sessions_user ON sessions (tenant_id, user_id);

-- Failed sign-ins, kept for the rate-limit window (shared by every API process).
CREATE TABLE login_failures (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  scope text NOT NULL CHECK (scope IN ('ip', 'email')),
  key text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX login_failures_lookup ON login_failures (tenant_id, scope, key, failed_at);

SELECT enable_tenant_isolation('users', 'sessions', 'login_failures');
