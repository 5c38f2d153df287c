-- Saved views (issue 28 item 2; docs/web.md "Saved views", docs/adding-an-entity.md `owner`):
-- a table's filters, search, ordering, columns, density and grouping under a name, kept by
-- the user who saved it — private, or shared with the team — and one default per user and table.

-- The signed-in user of the current transaction (SET LOCAL app.user_id, db/client.ts), or NULL
-- for a visitor or a system actor working for nobody.
CREATE FUNCTION app_user_id() RETURNS uuid
LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('app.user_id', true), '')::uuid
$$;

-- Rows that belong to a user (a resource declared with `owner`, resource.ts): restrictive
-- policies, ANDed with tenant_isolation, so the rule holds for every statement whoever writes
-- it — the owner reads, writes and deletes their rows; everyone else of the tenant only reads
-- the rows whose `shared_column` is true (NULL: none). A transaction without a user sees none.
CREATE FUNCTION enable_owner_rows(tbl text, shared_column text DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  readable text := CASE WHEN shared_column IS NULL THEN 'owner_id = app_user_id()'
                        ELSE format('owner_id = app_user_id() OR %I', shared_column) END;
BEGIN
  EXECUTE format('CREATE POLICY owner_read ON %I AS RESTRICTIVE FOR SELECT USING (%s)', tbl, readable);
  EXECUTE format('CREATE POLICY owner_insert ON %I AS RESTRICTIVE FOR INSERT WITH CHECK (owner_id = app_user_id())', tbl);
  EXECUTE format('CREATE POLICY owner_update ON %I AS RESTRICTIVE FOR UPDATE USING (owner_id = app_user_id()) WITH CHECK (owner_id = app_user_id())', tbl);
  EXECUTE format('CREATE POLICY owner_delete ON %I AS RESTRICTIVE FOR DELETE USING (owner_id = app_user_id())', tbl);
END $$;

CREATE TABLE saved_views (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  owner_id uuid NOT NULL,
  name text NOT NULL,
  -- The resource kind whose list the view shows (checked against the catalog on save).
  resource text NOT NULL,
  state jsonb NOT NULL DEFAULT '{}',
  shared boolean NOT NULL DEFAULT false,
  name_keys text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (name) STORED,
  PRIMARY KEY (tenant_id, id),
  -- A user's views go with the user.
  FOREIGN KEY (tenant_id, owner_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX saved_views_owner ON saved_views (tenant_id, owner_id);
-- Not one of SPEC §3's entity counts: totals count the (few, owner-filtered) rows.
SELECT setup_entity_table('saved_views', NULL, ARRAY['resource', 'shared']);
SELECT enable_owner_rows('saved_views', 'shared');

-- Each user's default view of a table: the one the list opens with when its URL names none.
-- A user's own rows only (restrictive), so reading it needs no user id in the statement.
CREATE TABLE saved_view_defaults (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  user_id uuid NOT NULL,
  resource text NOT NULL,
  view_id uuid NOT NULL,
  PRIMARY KEY (tenant_id, user_id, resource),
  FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, view_id) REFERENCES saved_views (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX saved_view_defaults_view ON saved_view_defaults (tenant_id, view_id);
SELECT enable_tenant_isolation('saved_view_defaults');
CREATE POLICY own_defaults ON saved_view_defaults AS RESTRICTIVE
  USING (user_id = app_user_id()) WITH CHECK (user_id = app_user_id());
