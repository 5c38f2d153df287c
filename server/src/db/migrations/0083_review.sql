-- Review (suggestions) as an engine capability (docs/review.md): a resource that declares
-- `review` has a status column — suggested → active | rejected — and only active rows are
-- curated records (lists, counts, search, relations, exports, backlinks). Organizations and
-- people had 'active' and 'suggested'; ledger entries join them (SPEC §3: suggestion type
-- codes ORG, PER, anything else → ledger).
ALTER TABLE organizations DROP CONSTRAINT organizations_status_check;
ALTER TABLE organizations ADD CONSTRAINT organizations_status_check CHECK (status IN ('suggested', 'active', 'rejected'));
ALTER TABLE people DROP CONSTRAINT people_status_check;
ALTER TABLE people ADD CONSTRAINT people_status_check CHECK (status IN ('suggested', 'active', 'rejected'));
ALTER TABLE ledger_entries ADD COLUMN status text NOT NULL DEFAULT 'active'
  CONSTRAINT ledger_entries_status_check CHECK (status IN ('suggested', 'active', 'rejected'));
-- Every list reads one status: the status follows the tenant in the list index, as for
-- organizations and people (0003).
DROP INDEX ledger_entries_recent;
CREATE INDEX ledger_entries_recent ON ledger_entries (tenant_id, status, updated_at DESC, id DESC);

-- Suggestions and rejected suggestions count apart from the curated rows ('<kind>:suggested',
-- '<kind>:rejected'), so entity counts and list totals never include them.
CREATE OR REPLACE FUNCTION entity_counter_kind(fixed text, row_data jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN fixed = '*' THEN row_data ->> 'kind' ELSE fixed END
      || CASE WHEN row_data ->> 'status' IN ('suggested', 'rejected') THEN ':' || (row_data ->> 'status') ELSE '' END
$$;

-- Where a suggestion was found: one row per source (a raw data item once they exist — issue
-- 15 adds them, so source_id has no foreign key yet), with the snippet around the mention,
-- its character offsets in the source's text and how often the source mentions it. Kept
-- when the suggestion is accepted, and moved to the record it is folded into (accept with
-- link_to, or any merge).
CREATE TABLE suggestion_provenance (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  -- The reviewed resource's kind and the record (organizations, people or ledger_entries).
  resource text NOT NULL,
  record_id uuid NOT NULL,
  source_kind text NOT NULL CHECK (source_kind <> '' AND length(source_kind) <= 50),
  source_id uuid,
  snippet text NOT NULL DEFAULT '' CHECK (length(snippet) <= 2000),
  start_offset integer CHECK (start_offset >= 0),
  end_offset integer CHECK (end_offset >= start_offset),
  mention_count integer NOT NULL DEFAULT 1 CHECK (mention_count >= 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX suggestion_provenance_record ON suggestion_provenance (tenant_id, resource, record_id);
SELECT enable_tenant_isolation('suggestion_provenance');

-- A deleted record takes its provenance with it, however it is deleted (one, bulk, cascade).
CREATE FUNCTION forget_suggestion_provenance() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM suggestion_provenance WHERE tenant_id = OLD.tenant_id AND resource = TG_ARGV[0] AND record_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER organizations_provenance AFTER DELETE ON organizations
  FOR EACH ROW EXECUTE FUNCTION forget_suggestion_provenance('organizations');
CREATE TRIGGER people_provenance AFTER DELETE ON people
  FOR EACH ROW EXECUTE FUNCTION forget_suggestion_provenance('people');
CREATE TRIGGER ledger_entries_provenance AFTER DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION forget_suggestion_provenance('ledger_entries');

-- Rejected suggestions, remembered by normalized name and source ('' when none), so the
-- same name from the same source is not suggested again.
CREATE TABLE suggestion_rejections (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  resource text NOT NULL,
  name_key text NOT NULL,
  source_kind text NOT NULL DEFAULT '',
  source_id text NOT NULL DEFAULT '',
  record_id uuid,
  rejected_by uuid,
  rejected_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, resource, name_key, source_kind, source_id)
);
SELECT enable_tenant_isolation('suggestion_rejections');
