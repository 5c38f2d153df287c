-- Intelbooks (SPEC §2 facts, sections, categories, s/:code; §3 entity counts "facts";
-- docs/intelbooks.md): sections and categories are the reader's headings, facts are
-- bullet-point statements nested into trees of any depth, and share codes open one subtree.

-- Sections and categories: the same columns, each table set up alike.
DO $$
DECLARE
  tbl text;
BEGIN
  FOREACH tbl IN ARRAY ARRAY['fact_sections', 'fact_categories'] LOOP
    EXECUTE format($table$
      CREATE TABLE %I (
        tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        name text NOT NULL,
        description text,
        position integer,
        name_keys text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        updated_by uuid,
        display_name text GENERATED ALWAYS AS (name) STORED,
        PRIMARY KEY (tenant_id, id)
      )$table$, tbl);
    EXECUTE format('CREATE INDEX %I ON %I (tenant_id, position, name)', tbl || '_order', tbl);
    -- Headings, not counted (counterKinds: []): their list totals count rows.
    PERFORM setup_entity_table(tbl, NULL);
  END LOOP;
END $$;

-- A fact: its parent (null for a root), its place among its siblings, and the section and
-- category of its root (a child inherits them: facts.service.ts keeps them in step).
CREATE TABLE facts (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  text text NOT NULL,
  parent uuid,
  position integer NOT NULL DEFAULT 0,
  section uuid,
  category uuid,
  sources_library uuid[] NOT NULL DEFAULT '{}',
  sources_raw_data uuid[] NOT NULL DEFAULT '{}',
  source_urls text[] NOT NULL DEFAULT '{}',
  url_keys text[] NOT NULL DEFAULT '{}',
  organizations uuid[] NOT NULL DEFAULT '{}',
  people uuid[] NOT NULL DEFAULT '{}',
  ledger_entries uuid[] NOT NULL DEFAULT '{}',
  keywords uuid[] NOT NULL DEFAULT '{}',
  valid_from date,
  valid_from_incomplete_day boolean NOT NULL DEFAULT false,
  valid_from_incomplete_month boolean NOT NULL DEFAULT false,
  valid_from_incomplete_year boolean NOT NULL DEFAULT false,
  valid_to date,
  valid_to_incomplete_day boolean NOT NULL DEFAULT false,
  valid_to_incomplete_month boolean NOT NULL DEFAULT false,
  valid_to_incomplete_year boolean NOT NULL DEFAULT false,
  visibility text NOT NULL DEFAULT 'hidden' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (left(text, 200)) STORED,
  PRIMARY KEY (tenant_id, id),
  CONSTRAINT facts_not_own_parent CHECK (parent IS DISTINCT FROM id),
  -- A root has a section (a child's is its root's).
  CONSTRAINT facts_root_section CHECK (parent IS NOT NULL OR section IS NOT NULL)
);
-- The reader walks down from the roots of a section, then from each parent to its children, in
-- order: the children's index serves the parent filter too; the roots' (partial) one is made
-- after the helper, which would otherwise take it for the section filter's index.
CREATE INDEX facts_children ON facts (tenant_id, parent, position);
SELECT setup_entity_table('facts', 'facts',
  ARRAY['parent', 'section', 'category', 'sources_library', 'sources_raw_data', 'organizations', 'people',
        'ledger_entries', 'keywords', 'visibility']);
CREATE INDEX facts_roots ON facts (tenant_id, section, position) WHERE parent IS NULL;

-- Share codes (s/:code): a random code (80 bits, base32) opening one subtree, seen with the
-- viewer's own audience. The code is kept as written: it raises nothing (a viewer sees what
-- their audience may see), so admins can copy it again from the list.
CREATE TABLE fact_share_codes (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  fact_id uuid NOT NULL,
  code text NOT NULL CHECK (code ~ '^[0-9a-z]{16}$'),
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz,
  view_count integer NOT NULL DEFAULT 0 CHECK (view_count >= 0),
  last_viewed_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  -- A code's subtree goes with it.
  FOREIGN KEY (tenant_id, fact_id) REFERENCES facts (tenant_id, id) ON DELETE CASCADE
);
-- Looked up by code under the host's tenant; unique per tenant (and, being random, everywhere).
CREATE UNIQUE INDEX fact_share_codes_code ON fact_share_codes (tenant_id, code);
CREATE INDEX fact_share_codes_fact ON fact_share_codes (tenant_id, fact_id);
CREATE INDEX fact_share_codes_recent ON fact_share_codes (tenant_id, created_at DESC, id DESC);
SELECT enable_tenant_isolation('fact_share_codes');
