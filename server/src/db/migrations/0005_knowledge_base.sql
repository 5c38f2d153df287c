-- The knowledge base (SPEC §3): keywords, terminology, geos and cities, ledger
-- entries and investments, library entries, lists of every kind, source URLs,
-- tagging rules, and the audit log every resource writes.
--
-- Relations between entities are uuid[] (or uuid) columns named after the
-- field (ledger_entries.organizations, library_entries.authors, …). They carry
-- no foreign key: the resource engine removes an id from every relation that
-- points at a deleted row, and moves them on a merge, in the same
-- transaction (server/src/resources/relations.ts). GIN indexes make "which
-- rows point at X" an index lookup.

-- Audit log: one entry per create, edit, delete, merge and undo of a record.
CREATE TABLE audit_entries (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  resource text NOT NULL,
  record_id uuid NOT NULL,
  action text NOT NULL CHECK (action IN ('create', 'update', 'delete', 'merge', 'undo_merge')),
  user_id uuid,
  user_email text,
  display_name text,
  -- {field: {from, to}} as the API presents the values.
  changes jsonb NOT NULL DEFAULT '{}',
  -- What a merge changed, so it can be undone; null for other actions.
  merge jsonb,
  undone_at timestamptz,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX audit_entries_record ON audit_entries (tenant_id, record_id, at DESC);
SELECT enable_tenant_isolation('audit_entries');

-- Keywords: unique per tenant ignoring case.
CREATE TABLE keywords (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  description text,
  show_on_dashboard boolean NOT NULL DEFAULT false,
  visibility text NOT NULL DEFAULT 'public' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
  name_keys text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (name) STORED,
  search_name text GENERATED ALWAYS AS (search_text(name)) STORED,
  search_document text GENERATED ALWAYS AS (search_text(name, description)) STORED,
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX keywords_name_key ON keywords (tenant_id, lower(name));
CREATE INDEX keywords_recent ON keywords (tenant_id, updated_at DESC, id DESC);
CREATE INDEX keywords_search_name ON keywords USING gin (tenant_id, search_name gin_trgm_ops);
CREATE INDEX keywords_search_document ON keywords USING gin (tenant_id, search_document gin_trgm_ops);
SELECT enable_tenant_isolation('keywords');
CREATE TRIGGER keywords_counter AFTER INSERT OR UPDATE OR DELETE ON keywords
  FOR EACH ROW EXECUTE FUNCTION maintain_entity_counter('keyword');

CREATE TABLE terminology (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  term text NOT NULL,
  definition text,
  keywords uuid[] NOT NULL DEFAULT '{}',
  show_on_dashboard boolean NOT NULL DEFAULT false,
  visibility text NOT NULL DEFAULT 'public' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
  name_keys text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (term) STORED,
  search_name text GENERATED ALWAYS AS (search_text(term)) STORED,
  search_document text GENERATED ALWAYS AS (search_text(term, definition)) STORED,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX terminology_recent ON terminology (tenant_id, updated_at DESC, id DESC);
CREATE INDEX terminology_search_document ON terminology USING gin (tenant_id, search_document gin_trgm_ops);
CREATE INDEX terminology_keywords ON terminology USING gin (keywords);
SELECT enable_tenant_isolation('terminology');
CREATE TRIGGER terminology_counter AFTER INSERT OR UPDATE OR DELETE ON terminology
  FOR EACH ROW EXECUTE FUNCTION maintain_entity_counter('terminology');

-- Geos (countries and regions) and cities are shared by every tenant: read by
-- all, written only by tenant managers (app_manages_tenants()).
CREATE TABLE geos (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  -- ISO 3166-1 alpha-2 for countries; a free code for regions.
  code text NOT NULL,
  geo_type text NOT NULL DEFAULT 'country' CHECK (geo_type IN ('country', 'region')),
  -- Countries a region groups (uuid[] of geos).
  countries uuid[] NOT NULL DEFAULT '{}',
  name_keys text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (name) STORED,
  search_name text GENERATED ALWAYS AS (search_text(name, code)) STORED,
  search_document text GENERATED ALWAYS AS (search_text(name, code)) STORED
);
CREATE UNIQUE INDEX geos_code_key ON geos (upper(code));
CREATE INDEX geos_recent ON geos (updated_at DESC, id DESC);
CREATE INDEX geos_search_document ON geos USING gin (search_document gin_trgm_ops);

CREATE TABLE cities (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  country uuid,
  admin_area text,
  latitude double precision,
  longitude double precision,
  population integer,
  name_keys text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (name) STORED,
  search_name text GENERATED ALWAYS AS (search_text(name)) STORED,
  search_document text GENERATED ALWAYS AS (search_text(name, admin_area)) STORED
);
CREATE INDEX cities_recent ON cities (updated_at DESC, id DESC);
CREATE INDEX cities_search_document ON cities USING gin (search_document gin_trgm_ops);
CREATE INDEX cities_country ON cities (country);

DO $$
DECLARE
  shared text;
BEGIN
  FOREACH shared IN ARRAY ARRAY['geos', 'cities'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', shared);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', shared);
    EXECUTE format('CREATE POLICY shared_read ON %I FOR SELECT USING (true)', shared);
    EXECUTE format('CREATE POLICY shared_insert ON %I FOR INSERT WITH CHECK (app_manages_tenants())', shared);
    EXECUTE format('CREATE POLICY shared_update ON %I FOR UPDATE USING (app_manages_tenants()) WITH CHECK (app_manages_tenants())', shared);
    EXECUTE format('CREATE POLICY shared_delete ON %I FOR DELETE USING (app_manages_tenants())', shared);
  END LOOP;
END $$;

-- Ledger entries ("Asset (entry)" in SPEC §3).
CREATE TABLE ledger_entries (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  year integer CHECK (year BETWEEN 1000 AND 9999),
  quarter text NOT NULL DEFAULT 'Q1' CHECK (quarter IN ('Q1', 'Q2', 'Q3', 'Q4')),
  data text,
  organizations uuid[] NOT NULL DEFAULT '{}',
  people uuid[] NOT NULL DEFAULT '{}',
  geos uuid[] NOT NULL DEFAULT '{}',
  keywords uuid[] NOT NULL DEFAULT '{}',
  "order" integer,
  show_on_dashboard boolean NOT NULL DEFAULT false,
  url text,
  symbol text,
  caption text,
  visibility text NOT NULL DEFAULT 'hidden' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
  name_keys text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (
    coalesce(nullif(caption, ''), nullif(symbol, ''), left(nullif(data, ''), 120))
  ) STORED,
  search_name text GENERATED ALWAYS AS (search_text(caption, symbol)) STORED,
  search_document text GENERATED ALWAYS AS (search_text(caption, symbol, data, url)) STORED,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX ledger_entries_recent ON ledger_entries (tenant_id, updated_at DESC, id DESC);
CREATE INDEX ledger_entries_search_name ON ledger_entries USING gin (tenant_id, search_name gin_trgm_ops);
CREATE INDEX ledger_entries_search_document ON ledger_entries USING gin (tenant_id, search_document gin_trgm_ops);
CREATE INDEX ledger_entries_organizations ON ledger_entries USING gin (organizations);
CREATE INDEX ledger_entries_people ON ledger_entries USING gin (people);
CREATE INDEX ledger_entries_geos ON ledger_entries USING gin (geos);
CREATE INDEX ledger_entries_keywords ON ledger_entries USING gin (keywords);
SELECT enable_tenant_isolation('ledger_entries');
CREATE TRIGGER ledger_entries_counter AFTER INSERT OR UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION maintain_entity_counter('ledger_entries');

-- Investments: a stake in a ledger entry, held by an organization or a person.
CREATE TABLE investments (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  ledger_entry uuid NOT NULL,
  has_inv_vehicle boolean NOT NULL DEFAULT false,
  inv_vehicle_type text CHECK (inv_vehicle_type IN ('VC', 'FA', 'PE')),
  inv_currency text CHECK (inv_currency ~ '^[A-Z]{3}$'),
  inv_date date,
  inv_date_incomplete_day boolean NOT NULL DEFAULT false,
  inv_date_incomplete_month boolean NOT NULL DEFAULT false,
  inv_date_incomplete_year boolean NOT NULL DEFAULT false,
  inv_risk text,
  owned boolean NOT NULL DEFAULT false,
  owner uuid,
  owner_person uuid,
  ownership_percentage numeric(7, 4) CHECK (ownership_percentage BETWEEN 0 AND 100),
  public_url text,
  private_url text,
  show_on_dashboard boolean NOT NULL DEFAULT false,
  visibility text NOT NULL DEFAULT 'hidden' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
  admin_notes text,
  keywords uuid[] NOT NULL DEFAULT '{}',
  name_keys text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (
    coalesce(inv_vehicle_type, 'Investment') || coalesce(' · ' || inv_currency, '')
      || coalesce(' · ' || trim_scale(ownership_percentage)::text || '%', '')
  ) STORED,
  search_name text GENERATED ALWAYS AS (search_text(inv_vehicle_type, inv_currency)) STORED,
  -- admin_notes and private_url stay out: search must not reveal what a reader may not see.
  search_document text GENERATED ALWAYS AS (search_text(inv_vehicle_type, inv_currency, inv_risk, public_url)) STORED,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX investments_recent ON investments (tenant_id, updated_at DESC, id DESC);
CREATE INDEX investments_ledger_entry ON investments (tenant_id, ledger_entry);
CREATE INDEX investments_owner ON investments (tenant_id, owner) WHERE owner IS NOT NULL;
CREATE INDEX investments_owner_person ON investments (tenant_id, owner_person) WHERE owner_person IS NOT NULL;
CREATE INDEX investments_keywords ON investments USING gin (keywords);
SELECT enable_tenant_isolation('investments');
CREATE TRIGGER investments_counter AFTER INSERT OR UPDATE OR DELETE ON investments
  FOR EACH ROW EXECUTE FUNCTION maintain_entity_counter('investments');

CREATE TABLE library_entries (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  title text,
  abstract text,
  publish_date date,
  publish_date_incomplete_day boolean NOT NULL DEFAULT false,
  publish_date_incomplete_month boolean NOT NULL DEFAULT false,
  publish_date_incomplete_year boolean NOT NULL DEFAULT false,
  publisher text,
  public_link text,
  paywall_link text,
  publish_frequency text,
  type text CHECK (type IN (
    'Article', 'Bio/Obituary/Profile/Interview', 'Book', 'Database/List/Ranking', 'Deck/Memo/Presentation',
    'Documentary', 'Documents/Notes', 'Essay/Thoughts/Whitepaper/Opinion/Post', 'Event', 'Filing', 'Graphic',
    'Literature/Paper', 'Podcast', 'Quote', 'Report')),
  is_fav boolean NOT NULL DEFAULT false,
  authors uuid[] NOT NULL DEFAULT '{}',
  -- Organizations and ledger entries the entry is about.
  assets uuid[] NOT NULL DEFAULT '{}',
  keywords uuid[] NOT NULL DEFAULT '{}',
  show_on_dashboard boolean NOT NULL DEFAULT false,
  dataset_info text,
  visibility text NOT NULL DEFAULT 'hidden' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
  name_keys text[] NOT NULL DEFAULT '{}',
  url_keys text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (title) STORED,
  search_name text GENERATED ALWAYS AS (search_text(title)) STORED,
  -- paywall_link stays out: search must not reveal what a reader may not see.
  search_document text GENERATED ALWAYS AS (search_text(title, abstract, publisher, type, dataset_info, public_link)) STORED,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX library_entries_recent ON library_entries (tenant_id, updated_at DESC, id DESC);
CREATE INDEX library_entries_search_name ON library_entries USING gin (tenant_id, search_name gin_trgm_ops);
CREATE INDEX library_entries_search_document ON library_entries USING gin (tenant_id, search_document gin_trgm_ops);
CREATE INDEX library_entries_authors ON library_entries USING gin (authors);
CREATE INDEX library_entries_assets ON library_entries USING gin (assets);
CREATE INDEX library_entries_keywords ON library_entries USING gin (keywords);
CREATE INDEX library_entries_name_keys ON library_entries USING gin (name_keys);
CREATE INDEX library_entries_url_keys ON library_entries USING gin (url_keys);
SELECT enable_tenant_isolation('library_entries');
CREATE TRIGGER library_entries_counter AFTER INSERT OR UPDATE OR DELETE ON library_entries
  FOR EACH ROW EXECUTE FUNCTION maintain_entity_counter('library');

-- Lists: keywords for auto-tagging, search columns, and items of every kind.
ALTER TABLE lists
  ADD COLUMN keywords uuid[] NOT NULL DEFAULT '{}',
  ADD COLUMN show_on_dashboard boolean NOT NULL DEFAULT false,
  ADD COLUMN name_keys text[] NOT NULL DEFAULT '{}',
  ADD COLUMN display_name text GENERATED ALWAYS AS (name) STORED,
  ADD COLUMN search_name text GENERATED ALWAYS AS (search_text(name)) STORED,
  ADD COLUMN search_document text GENERATED ALWAYS AS (search_text(name, description)) STORED,
  ADD CONSTRAINT lists_slug_format CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$');
CREATE INDEX lists_recent ON lists (tenant_id, updated_at DESC, id DESC);
CREATE INDEX lists_search_name ON lists USING gin (tenant_id, search_name gin_trgm_ops);
CREATE INDEX lists_search_document ON lists USING gin (tenant_id, search_document gin_trgm_ops);
CREATE INDEX lists_keywords ON lists USING gin (keywords);

-- Earlier slugs of a list, so old links redirect after a rename.
CREATE TABLE list_slugs (
  tenant_id uuid NOT NULL,
  kind text NOT NULL,
  slug text NOT NULL,
  list_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, kind, slug),
  FOREIGN KEY (tenant_id, list_id) REFERENCES lists (tenant_id, id) ON DELETE CASCADE
);
SELECT enable_tenant_isolation('list_slugs');

ALTER TABLE list_items DROP CONSTRAINT list_items_pkey;
ALTER TABLE list_items DROP CONSTRAINT list_items_one_target;
ALTER TABLE list_items DROP COLUMN item_id;
ALTER TABLE list_items
  ADD COLUMN ledger_entry_id uuid,
  ADD COLUMN library_entry_id uuid,
  ADD FOREIGN KEY (tenant_id, ledger_entry_id) REFERENCES ledger_entries (tenant_id, id) ON DELETE CASCADE,
  ADD FOREIGN KEY (tenant_id, library_entry_id) REFERENCES library_entries (tenant_id, id) ON DELETE CASCADE,
  ADD CONSTRAINT list_items_one_target CHECK (num_nonnulls(organization_id, person_id, ledger_entry_id, library_entry_id) = 1),
  ADD COLUMN item_id uuid GENERATED ALWAYS AS (coalesce(organization_id, person_id, ledger_entry_id, library_entry_id)) STORED,
  ADD PRIMARY KEY (tenant_id, list_id, item_id);
CREATE INDEX list_items_ledger_entry ON list_items (tenant_id, ledger_entry_id) WHERE ledger_entry_id IS NOT NULL;
CREATE INDEX list_items_library_entry ON list_items (tenant_id, library_entry_id) WHERE library_entry_id IS NOT NULL;
CREATE INDEX list_items_order ON list_items (tenant_id, list_id, position);

-- Source URLs (/urls): a normalized URL and an alias, unique per tenant. They
-- are research material, so they count as hidden.
CREATE TABLE source_urls (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  url text NOT NULL,
  alias text,
  url_keys text[] NOT NULL DEFAULT '{}',
  name_keys text[] NOT NULL DEFAULT '{}',
  visibility text NOT NULL DEFAULT 'hidden' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (coalesce(nullif(alias, ''), url)) STORED,
  search_name text GENERATED ALWAYS AS (search_text(alias, url)) STORED,
  search_document text GENERATED ALWAYS AS (search_text(alias, url)) STORED,
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX source_urls_url_key ON source_urls (tenant_id, (url_keys[1]));
CREATE INDEX source_urls_recent ON source_urls (tenant_id, updated_at DESC, id DESC);
CREATE INDEX source_urls_search_document ON source_urls USING gin (tenant_id, search_document gin_trgm_ops);
SELECT enable_tenant_isolation('source_urls');
CREATE TRIGGER source_urls_counter AFTER INSERT OR UPDATE OR DELETE ON source_urls
  FOR EACH ROW EXECUTE FUNCTION maintain_entity_counter('source');

-- Tagging rules: a word, phrase or regular expression → keywords.
CREATE TABLE tagging_rules (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text,
  pattern text NOT NULL,
  match_type text NOT NULL DEFAULT 'word' CHECK (match_type IN ('word', 'phrase', 'regex')),
  case_sensitive boolean NOT NULL DEFAULT false,
  keywords uuid[] NOT NULL DEFAULT '{}',
  enabled boolean NOT NULL DEFAULT true,
  name_keys text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (coalesce(nullif(name, ''), pattern)) STORED,
  search_name text GENERATED ALWAYS AS (search_text(name, pattern)) STORED,
  search_document text GENERATED ALWAYS AS (search_text(name, pattern)) STORED,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX tagging_rules_recent ON tagging_rules (tenant_id, updated_at DESC, id DESC);
CREATE INDEX tagging_rules_keywords ON tagging_rules USING gin (keywords);
SELECT enable_tenant_isolation('tagging_rules');

-- Organizations and people gain keywords (tagging rules and list auto-tagging apply to them too).
ALTER TABLE organizations ADD COLUMN keywords uuid[] NOT NULL DEFAULT '{}';
ALTER TABLE people ADD COLUMN keywords uuid[] NOT NULL DEFAULT '{}';
CREATE INDEX organizations_keywords ON organizations USING gin (keywords);
CREATE INDEX people_keywords ON people USING gin (keywords);
