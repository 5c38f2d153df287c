-- A list search forgives typos by the tenant's words of the table (migration 0200
-- search_query_forgiving, over search_vocabulary). Quick-searched tables fill the vocabulary from
-- search_words (migration 0170); every other searched table of the tenants' own records fills it
-- here, from the words of its names and main fields (weights A and B of its search vector): the
-- words a reader types and mistypes. Long texts (a raw data item's extracted text, notes) stay
-- out, so that writing a document does not write thousands of words a typo is rarely typed for.

-- A row's words of weights A and B join the vocabulary (the trigger fires on insert and on an
-- update of the columns they come from). A word stays when its last record goes, as in 0170.
CREATE FUNCTION add_record_vocabulary() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  -- As text of the database's collation, as the column is (see maintain_search_words).
  source_table text := TG_TABLE_NAME;
BEGIN
  INSERT INTO search_vocabulary (tenant_id, record_table, word)
  SELECT NEW.tenant_id, source_table, w.lexeme FROM unnest(NEW.search_vector) AS w
  WHERE w.weights && ARRAY['A', 'B']
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

-- The per-table block of a searched table that is not quick-searched (search-index.ts
-- vocabularyStatements, at start-up): the trigger, on insert and on update of `columns` (the
-- fields its A and B words come from), and the words of the rows it already holds when the
-- trigger is new or `rebuild` is asked for (its search vector was rebuilt: the trigger is made
-- anew, as the fields may have changed, and the table's words are written anew).
CREATE FUNCTION setup_search_vocabulary(tbl text, columns text[], rebuild boolean DEFAULT false)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  trigger_name text := tbl || '_search_vocabulary';
  missing boolean := NOT EXISTS (
    SELECT 1 FROM pg_trigger WHERE tgrelid = format('%I', tbl)::regclass AND tgname = trigger_name);
BEGIN
  IF missing OR rebuild THEN
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', trigger_name, tbl);
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR UPDATE OF %s ON %I FOR EACH ROW EXECUTE FUNCTION add_record_vocabulary()',
      trigger_name, (SELECT string_agg(format('%I', c), ', ') FROM unnest(columns) AS c), tbl);
    DELETE FROM search_vocabulary WHERE record_table = tbl;
    EXECUTE format(
      'INSERT INTO search_vocabulary (tenant_id, record_table, word)
       SELECT DISTINCT t.tenant_id, %L, w.lexeme FROM %I t, unnest(t.search_vector) w
       WHERE w.weights && ARRAY[''A'', ''B'']
       ON CONFLICT DO NOTHING',
      tbl, tbl);
  END IF;
END $$;
