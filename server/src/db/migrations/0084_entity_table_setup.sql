-- One source of truth, checked. The resource declarations (server/src/modules/*/…resource.ts)
-- describe each entity table; server/src/resources/conformance.test.ts checks the migrated
-- database against them (columns and types, choice lists and their CHECKs, row-level
-- security, counter triggers, indexes, tenant_id in every key). This migration adds the SQL
-- helper every new entity table is set up with, and brings the existing tables up to the rule
-- with it: what the check found missing was an index on most filter columns and on
-- geos.countries, a CHECK listing inv_currency's choices, and cities' coordinates stored as
-- double precision where their field is a decimal.

-- The per-table block of an entity table, in one call (docs/adding-an-entity.md) instead of a
-- copy in each migration:
--   * row-level security, enabled and forced: a tenant table (one with tenant_id) gets the
--     tenant_isolation policy; a shared table is read by everyone and written by tenant managers;
--   * <table>_recent, the index of the default list order: (tenant_id, updated_at DESC, id DESC);
--   * an index for each column in `indexed` (its relation and filter columns) that no index
--     starts with yet (after tenant_id): GIN for an array column (a relation to many, which is
--     looked up with && and @>), otherwise a btree (tenant_id, column);
--   * with `counter_kind`, the <table>_counter trigger keeping entity_counters in step
--     ('*': the row's own kind column is the counter kind, as for lists).
-- Each step is skipped when it is already in place, so calling it on an existing table adds
-- only what is missing.
CREATE FUNCTION setup_entity_table(tbl text, counter_kind text DEFAULT NULL, indexed text[] DEFAULT '{}')
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  rel regclass := format('%I', tbl)::regclass;
  tenant_column smallint;
  lead text;
  col text;
  col_number smallint;
  col_is_array boolean;
  policy record;
BEGIN
  SELECT attnum INTO tenant_column FROM pg_attribute WHERE attrelid = rel AND attname = 'tenant_id' AND NOT attisdropped;
  lead := CASE WHEN tenant_column IS NULL THEN '' ELSE 'tenant_id, ' END;

  EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tbl);
  IF tenant_column IS NOT NULL THEN
    IF NOT EXISTS (SELECT 1 FROM pg_policy WHERE polrelid = rel AND polname = 'tenant_isolation') THEN
      EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id())', tbl);
    END IF;
  ELSE
    FOR policy IN
      SELECT * FROM (VALUES
        ('shared_read', 'FOR SELECT USING (true)'),
        ('shared_insert', 'FOR INSERT WITH CHECK (app_manages_tenants())'),
        ('shared_update', 'FOR UPDATE USING (app_manages_tenants()) WITH CHECK (app_manages_tenants())'),
        ('shared_delete', 'FOR DELETE USING (app_manages_tenants())')
      ) AS p(name, body)
    LOOP
      IF NOT EXISTS (SELECT 1 FROM pg_policy WHERE polrelid = rel AND polname = policy.name) THEN
        EXECUTE format('CREATE POLICY %I ON %I %s', policy.name, tbl, policy.body);
      END IF;
    END LOOP;
  END IF;

  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I (%supdated_at DESC, id DESC)', tbl || '_recent', tbl, lead);
  FOREACH col IN ARRAY indexed LOOP
    SELECT a.attnum, t.typcategory = 'A' INTO col_number, col_is_array
    FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
    WHERE a.attrelid = rel AND a.attname = col AND NOT a.attisdropped;
    IF col_number IS NULL THEN
      RAISE EXCEPTION 'setup_entity_table: %.% does not exist', tbl, col;
    END IF;
    CONTINUE WHEN EXISTS (
      SELECT 1 FROM pg_index i
      WHERE i.indrelid = rel AND (i.indkey[0] = col_number OR (i.indkey[0] = tenant_column AND i.indkey[1] = col_number)));
    IF col_is_array THEN
      EXECUTE format('CREATE INDEX %I ON %I USING gin (%I)', tbl || '_' || col, tbl, col);
    ELSE
      EXECUTE format('CREATE INDEX %I ON %I (%s%I)', tbl || '_' || col, tbl, lead, col);
    END IF;
  END LOOP;

  IF counter_kind IS NOT NULL THEN
    EXECUTE format(
      'CREATE OR REPLACE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION maintain_entity_counter(%L)',
      tbl || '_counter', tbl, counter_kind);
  END IF;
END $$;

-- Investments' currencies are the ISO 4217 codes the currency-codes package lists (the
-- declaration's choices): the CHECK lists the same codes instead of only their shape. A
-- package update that changes the list fails the conformance test until a migration follows.
ALTER TABLE investments DROP CONSTRAINT investments_inv_currency_check;
ALTER TABLE investments ADD CONSTRAINT investments_inv_currency_check CHECK (inv_currency IN (
  'AED', 'AFN', 'ALL', 'AMD', 'ANG', 'AOA', 'ARS', 'AUD', 'AWG', 'AZN', 'BAM', 'BBD', 'BDT', 'BGN',
  'BHD', 'BIF', 'BMD', 'BND', 'BOB', 'BOV', 'BRL', 'BSD', 'BTN', 'BWP', 'BYN', 'BZD', 'CAD', 'CDF',
  'CHE', 'CHF', 'CHW', 'CLF', 'CLP', 'CNY', 'COP', 'COU', 'CRC', 'CUC', 'CUP', 'CVE', 'CZK', 'DJF',
  'DKK', 'DOP', 'DZD', 'EGP', 'ERN', 'ETB', 'EUR', 'FJD', 'FKP', 'GBP', 'GEL', 'GHS', 'GIP', 'GMD',
  'GNF', 'GTQ', 'GYD', 'HKD', 'HNL', 'HTG', 'HUF', 'IDR', 'ILS', 'INR', 'IQD', 'IRR', 'ISK', 'JMD',
  'JOD', 'JPY', 'KES', 'KGS', 'KHR', 'KMF', 'KPW', 'KRW', 'KWD', 'KYD', 'KZT', 'LAK', 'LBP', 'LKR',
  'LRD', 'LSL', 'LYD', 'MAD', 'MDL', 'MGA', 'MKD', 'MMK', 'MNT', 'MOP', 'MRU', 'MUR', 'MVR', 'MWK',
  'MXN', 'MXV', 'MYR', 'MZN', 'NAD', 'NGN', 'NIO', 'NOK', 'NPR', 'NZD', 'OMR', 'PAB', 'PEN', 'PGK',
  'PHP', 'PKR', 'PLN', 'PYG', 'QAR', 'RON', 'RSD', 'RUB', 'RWF', 'SAR', 'SBD', 'SCR', 'SDG', 'SEK',
  'SGD', 'SHP', 'SLE', 'SOS', 'SRD', 'SSP', 'STN', 'SVC', 'SYP', 'SZL', 'THB', 'TJS', 'TMT', 'TND',
  'TOP', 'TRY', 'TTD', 'TWD', 'TZS', 'UAH', 'UGX', 'USD', 'USN', 'UYI', 'UYU', 'UYW', 'UZS', 'VED',
  'VES', 'VND', 'VUV', 'WST', 'XAF', 'XAG', 'XAU', 'XBA', 'XBB', 'XBC', 'XBD', 'XCD', 'XDR', 'XOF',
  'XPD', 'XPF', 'XPT', 'XSU', 'XTS', 'XUA', 'XXX', 'YER', 'ZAR', 'ZMW', 'ZWG'));

-- A city's coordinates are decimals with six places (decimal({ scale: 6 }) in the declaration),
-- as every decimal field is numeric: exact, and presented as the digits that were written.
ALTER TABLE cities
  ALTER COLUMN latitude TYPE numeric(8, 6),
  ALTER COLUMN longitude TYPE numeric(9, 6);

-- Every entity table through the helper: its counter kind, and its relation and filter
-- columns (visibility and show_on_dashboard are filters of every table that has them).
SELECT setup_entity_table('organizations', 'organizations',
  ARRAY['keywords', 'visibility', 'show_on_dashboard', 'hq_city', 'ownership_type']);
SELECT setup_entity_table('people', 'people',
  ARRAY['keywords', 'visibility', 'show_on_dashboard', 'gender', 'current_address_city', 'passport_country', 'is_fav']);
SELECT setup_entity_table('keywords', 'keyword', ARRAY['visibility', 'show_on_dashboard']);
SELECT setup_entity_table('library_entries', 'library',
  ARRAY['authors', 'assets', 'keywords', 'visibility', 'show_on_dashboard', 'type', 'publisher', 'is_fav']);
SELECT setup_entity_table('ledger_entries', 'ledger_entries',
  ARRAY['organizations', 'people', 'geos', 'keywords', 'visibility', 'show_on_dashboard', 'year', 'quarter']);
SELECT setup_entity_table('investments', 'investments',
  ARRAY['ledger_entry', 'owner', 'owner_person', 'keywords', 'visibility', 'show_on_dashboard',
        'inv_vehicle_type', 'inv_currency', 'owned', 'has_inv_vehicle']);
SELECT setup_entity_table('terminology', 'terminology', ARRAY['keywords', 'visibility', 'show_on_dashboard']);
SELECT setup_entity_table('geos', NULL, ARRAY['countries', 'geo_type']);
SELECT setup_entity_table('cities', NULL, ARRAY['country']);
SELECT setup_entity_table('source_urls', 'source');
SELECT setup_entity_table('tagging_rules', NULL, ARRAY['keywords', 'match_type', 'enabled']);
SELECT setup_entity_table('lists', '*', ARRAY['keywords', 'visibility', 'show_on_dashboard', 'kind']);
