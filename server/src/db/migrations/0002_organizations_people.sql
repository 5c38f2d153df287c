-- Organizations and people (SPEC §3), the lists they can belong to, and the
-- per-(tenant, kind, visibility) counters that home cards and list totals read
-- instead of counting rows.

-- unaccent() is STABLE (its dictionary could change); pinning the dictionary
-- makes it safe to use in generated columns and indexes.
CREATE FUNCTION f_unaccent(text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT public.unaccent('public.unaccent'::regdictionary, $1)
$$;

-- The text a row is searched by: lower-case, unaccented, parts joined by spaces.
CREATE FUNCTION search_text(VARIADIC parts text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(f_unaccent(array_to_string(parts, ' ')))
$$;

-- array_to_string() is STABLE in general but immutable for text[].
CREATE FUNCTION f_join(text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_to_string($1, ' ')
$$;

CREATE TABLE entity_counters (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  kind text NOT NULL,
  visibility text NOT NULL,
  count bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, kind, visibility)
);

-- The counter kind of a row: TG_ARGV[0], or the row's own `kind` column when
-- that argument is '*' (lists); suggestions count under '<kind>:suggested'.
CREATE FUNCTION entity_counter_kind(fixed text, row_data jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN fixed = '*' THEN row_data ->> 'kind' ELSE fixed END
      || CASE WHEN row_data ->> 'status' = 'suggested' THEN ':suggested' ELSE '' END
$$;

-- Keeps entity_counters in step with a table, in the writing transaction.
CREATE FUNCTION maintain_entity_counter() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  old_kind text;
  new_kind text;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    old_kind := entity_counter_kind(TG_ARGV[0], to_jsonb(OLD));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    new_kind := entity_counter_kind(TG_ARGV[0], to_jsonb(NEW));
  END IF;
  IF TG_OP = 'UPDATE' AND old_kind = new_kind AND OLD.visibility = NEW.visibility THEN
    RETURN NULL;
  END IF;
  IF old_kind IS NOT NULL THEN
    UPDATE entity_counters SET count = count - 1
    WHERE tenant_id = OLD.tenant_id AND kind = old_kind AND visibility = OLD.visibility;
  END IF;
  IF new_kind IS NOT NULL THEN
    INSERT INTO entity_counters (tenant_id, kind, visibility, count)
    VALUES (NEW.tenant_id, new_kind, NEW.visibility, 1)
    ON CONFLICT (tenant_id, kind, visibility) DO UPDATE SET count = entity_counters.count + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE TABLE organizations (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suggested')),
  name_inc text,
  name_dba text,
  ownership_type text,
  founding_date date,
  founding_date_incomplete_day boolean NOT NULL DEFAULT false,
  founding_date_incomplete_month boolean NOT NULL DEFAULT false,
  founding_date_incomplete_year boolean NOT NULL DEFAULT false,
  emails text[] NOT NULL DEFAULT '{}',
  phones text[] NOT NULL DEFAULT '{}',
  associated_urls text[] NOT NULL DEFAULT '{}',
  notes text,
  hq_city text,
  show_on_dashboard boolean NOT NULL DEFAULT false,
  visibility text NOT NULL DEFAULT 'hidden' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
  suggested_fields jsonb NOT NULL DEFAULT '{}',
  -- Duplicate-detection keys, computed by the application's normalizers.
  name_keys text[] NOT NULL DEFAULT '{}',
  url_keys text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (coalesce(nullif(name_dba, ''), name_inc)) STORED,
  search_name text GENERATED ALWAYS AS (search_text(name_dba, name_inc)) STORED,
  search_document text GENERATED ALWAYS AS (
    search_text(name_dba, name_inc, ownership_type, hq_city, notes,
                f_join(emails), f_join(associated_urls))
  ) STORED,
  PRIMARY KEY (tenant_id, id),
  CONSTRAINT organizations_named CHECK (coalesce(nullif(name_inc, ''), nullif(name_dba, '')) IS NOT NULL)
);
CREATE INDEX organizations_recent ON organizations (tenant_id, status, updated_at DESC, id);
CREATE INDEX organizations_search_name ON organizations USING gin (search_name gin_trgm_ops);
CREATE INDEX organizations_search_document ON organizations USING gin (search_document gin_trgm_ops);
CREATE INDEX organizations_name_keys ON organizations USING gin (name_keys);
CREATE INDEX organizations_url_keys ON organizations USING gin (url_keys);
CREATE INDEX organizations_emails ON organizations USING gin (emails);

CREATE TABLE people (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suggested')),
  name_given text,
  name_family text,
  name_nickname text,
  name_legal text,
  birth_date date,
  birth_date_incomplete_day boolean NOT NULL DEFAULT false,
  birth_date_incomplete_month boolean NOT NULL DEFAULT false,
  birth_date_incomplete_year boolean NOT NULL DEFAULT false,
  passport_city text,
  passport_country text,
  current_address_city text,
  current_address_street text,
  current_address_reference text,
  current_address_zipcode text,
  met_event_date date,
  met_event_name text,
  notes text,
  emails text[] NOT NULL DEFAULT '{}',
  phones text[] NOT NULL DEFAULT '{}',
  associated_urls text[] NOT NULL DEFAULT '{}',
  gender text CHECK (gender IN ('M', 'F')),
  show_on_dashboard boolean NOT NULL DEFAULT false,
  visibility text NOT NULL DEFAULT 'hidden' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
  suggested_fields jsonb NOT NULL DEFAULT '{}',
  removed_email_suggestion text[] NOT NULL DEFAULT '{}',
  professional_profile text,
  about text,
  is_fav boolean NOT NULL DEFAULT false,
  name_keys text[] NOT NULL DEFAULT '{}',
  url_keys text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (
    coalesce(nullif(btrim(coalesce(name_given, '') || ' ' || coalesce(name_family, '')), ''), name_nickname, name_legal)
  ) STORED,
  search_name text GENERATED ALWAYS AS (search_text(name_given, name_family, name_nickname, name_legal)) STORED,
  search_document text GENERATED ALWAYS AS (
    search_text(name_given, name_family, name_nickname, name_legal, current_address_city, passport_country,
                met_event_name, professional_profile, notes, about,
                f_join(emails), f_join(associated_urls))
  ) STORED,
  PRIMARY KEY (tenant_id, id),
  CONSTRAINT people_named CHECK (
    coalesce(nullif(name_given, ''), nullif(name_family, ''), nullif(name_nickname, ''), nullif(name_legal, '')) IS NOT NULL
  )
);
CREATE INDEX people_recent ON people (tenant_id, status, updated_at DESC, id);
CREATE INDEX people_search_name ON people USING gin (search_name gin_trgm_ops);
CREATE INDEX people_search_document ON people USING gin (search_document gin_trgm_ops);
CREATE INDEX people_name_keys ON people USING gin (name_keys);
CREATE INDEX people_url_keys ON people USING gin (url_keys);
CREATE INDEX people_emails ON people USING gin (emails);

-- Lists (their API and screens come with the knowledge base); entities carry
-- the lists they are items of, so deleting an entity must remove those items.
CREATE TABLE lists (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('LibraryList', 'LedgerList', 'OrganizationsList', 'PeopleList')),
  name text NOT NULL,
  slug text NOT NULL,
  description text,
  visibility text NOT NULL DEFAULT 'public' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
  auto_tagging boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, kind, slug)
);

CREATE TABLE list_items (
  tenant_id uuid NOT NULL,
  list_id uuid NOT NULL,
  organization_id uuid,
  person_id uuid,
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, list_id) REFERENCES lists (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, organization_id) REFERENCES organizations (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, person_id) REFERENCES people (tenant_id, id) ON DELETE CASCADE,
  CONSTRAINT list_items_one_target CHECK (num_nonnulls(organization_id, person_id) = 1),
  item_id uuid GENERATED ALWAYS AS (coalesce(organization_id, person_id)) STORED,
  PRIMARY KEY (tenant_id, list_id, item_id)
);
CREATE INDEX list_items_organization ON list_items (tenant_id, organization_id) WHERE organization_id IS NOT NULL;
CREATE INDEX list_items_person ON list_items (tenant_id, person_id) WHERE person_id IS NOT NULL;

CREATE TRIGGER organizations_counter AFTER INSERT OR UPDATE OR DELETE ON organizations
  FOR EACH ROW EXECUTE FUNCTION maintain_entity_counter('organizations');
CREATE TRIGGER people_counter AFTER INSERT OR UPDATE OR DELETE ON people
  FOR EACH ROW EXECUTE FUNCTION maintain_entity_counter('people');
CREATE TRIGGER lists_counter AFTER INSERT OR UPDATE OR DELETE ON lists
  FOR EACH ROW EXECUTE FUNCTION maintain_entity_counter('*');

SELECT enable_tenant_isolation('entity_counters', 'organizations', 'people', 'lists', 'list_items');
