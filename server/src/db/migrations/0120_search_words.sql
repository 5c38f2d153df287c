-- Quick search reads its candidates in order and stops after a page (docs/engine.md, "Quick
-- search"). The GIN indexes it read before (trigram on the names, full text on every searched
-- field) are read as whole bitmaps: a common word such as "analytics" cost ~10 ms per table on a
-- 400,000-row tenant however few results were wanted. search_words holds every word of each
-- quick-searched record's search vector, one row per (record, word), with a btree in word order:
-- a prefix is a range of it, read from its start until a page of visible records is found.
--
-- The words are the lexemes of the record's `search_vector` (built from the declaration's
-- `search` fields, server/src/resources/search-index.ts), so what is searched is declared once,
-- in the catalog; `in_name` marks the words of the names (weight 'A'), which rank first.
CREATE TABLE search_words (
  tenant_id uuid NOT NULL,
  -- The table of the record the word is of.
  record_table text NOT NULL,
  in_name boolean NOT NULL,
  word text NOT NULL,
  record_id uuid NOT NULL
);
-- text_pattern_ops: a prefix is a bytewise range under any collation, read in that order.
CREATE UNIQUE INDEX search_words_prefix ON search_words (tenant_id, record_table, in_name, word text_pattern_ops, record_id);
ALTER TABLE search_words ENABLE ROW LEVEL SECURITY;
ALTER TABLE search_words FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON search_words USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());

-- The distinct words of the names, per tenant and table: the typo-tolerant tier of quick search
-- finds the words like the search word here (pg_trgm word similarity over a few thousand words,
-- instead of over every record's name), then their records in search_words. A word stays when
-- its last record goes (a word nobody has finds no records; deleting it would race with a
-- concurrent write of the same word); setup_search_words(table, true) writes the list anew.
CREATE TABLE search_name_words (
  tenant_id uuid NOT NULL,
  record_table text NOT NULL,
  word text NOT NULL
);
CREATE INDEX search_name_words_similar ON search_name_words USING gin (tenant_id, record_table, word gin_trgm_ops);
-- The word leads, so that this key is no way to read a tenant's words: the search reads them
-- through the trigram index above, not by testing each of them (20,000 names' words on a
-- 400,000-person tenant: ~10 ms).
CREATE UNIQUE INDEX search_name_words_unique ON search_name_words (word, tenant_id, record_table);
ALTER TABLE search_name_words ENABLE ROW LEVEL SECURITY;
ALTER TABLE search_name_words FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON search_name_words USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());

-- The words of a search vector, and whether each is a word of the names.
CREATE FUNCTION search_vector_words(vector tsvector) RETURNS TABLE (in_name boolean, word text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 'A' = ANY (w.weights), w.lexeme FROM unnest(vector) AS w
$$;

-- Keeps a record's words in step with its search vector: an edit writes only the words that
-- changed (an edit of the notes touches a few rows, an edit of the visibility none); a new word
-- of the names joins search_name_words.
CREATE FUNCTION maintain_search_words() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  -- As text of the database's collation, as the column is (TG_TABLE_NAME is a name, of "C"),
  -- so that the comparisons below are conditions of the index.
  source_table text := TG_TABLE_NAME;
  gone record;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.search_vector IS NOT DISTINCT FROM OLD.search_vector THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    -- One probe of the unique index per word (a join lets the planner match on the record
    -- alone, which reads every entry of the tenant's table).
    FOR gone IN
      SELECT * FROM search_vector_words(OLD.search_vector)
      EXCEPT SELECT * FROM search_vector_words(CASE TG_OP WHEN 'UPDATE' THEN NEW.search_vector END)
    LOOP
      DELETE FROM search_words
      WHERE tenant_id = OLD.tenant_id AND record_table = source_table AND in_name = gone.in_name
        AND word = gone.word AND record_id = OLD.id;
    END LOOP;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    WITH added AS (
      INSERT INTO search_words (tenant_id, record_table, in_name, word, record_id)
      SELECT NEW.tenant_id, source_table, fresh.in_name, fresh.word, NEW.id
      FROM (SELECT * FROM search_vector_words(NEW.search_vector)
            EXCEPT SELECT * FROM search_vector_words(CASE TG_OP WHEN 'UPDATE' THEN OLD.search_vector END)) fresh
      RETURNING in_name, word)
    INSERT INTO search_name_words (tenant_id, record_table, word)
    SELECT NEW.tenant_id, source_table, added.word FROM added WHERE added.in_name
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

-- The per-table block of a quick-searched table (docs/adding-an-entity.md): the trigger keeping
-- its words, and its words written for the rows it already holds when the trigger is new or
-- `rebuild` is asked for (after its search vector was rebuilt from a changed declaration, which
-- rewrites the table without firing row triggers). The engine calls it at start-up for every
-- resource declared with `quickSearch` (applySearchIndexes), once its search vector exists.
CREATE FUNCTION setup_search_words(tbl text, rebuild boolean DEFAULT false)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  missing boolean := NOT EXISTS (
    SELECT 1 FROM pg_trigger WHERE tgrelid = format('%I', tbl)::regclass AND tgname = tbl || '_search_words');
BEGIN
  IF missing THEN
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION maintain_search_words()',
      tbl || '_search_words', tbl);
  END IF;
  IF missing OR rebuild THEN
    DELETE FROM search_words WHERE record_table = tbl;
    DELETE FROM search_name_words WHERE record_table = tbl;
    EXECUTE format(
      'INSERT INTO search_words (tenant_id, record_table, in_name, word, record_id)
       SELECT t.tenant_id, %L, w.in_name, w.word, t.id FROM %I t, search_vector_words(t.search_vector) w',
      tbl, tbl);
    INSERT INTO search_name_words (tenant_id, record_table, word)
    SELECT DISTINCT tenant_id, record_table, word FROM search_words WHERE record_table = tbl AND in_name;
  END IF;
END $$;

-- The word a quick search reads the word index by: the longest of the search text's words
-- (the likeliest to be rare); NULL when the text has no words.
CREATE FUNCTION search_key_word(q text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT w.lexeme FROM unnest(to_tsvector('simple'::regconfig, search_words(q))) AS w
  ORDER BY length(w.lexeme) DESC, w.lexeme COLLATE "C" LIMIT 1
$$;

-- How many words the search text has.
CREATE FUNCTION search_word_count(q text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT length(to_tsvector('simple'::regconfig, search_words(q)))
$$;

-- A record's first word (bytewise, as the word index orders them) starting with a prefix, among
-- its name words or its other words: a record with several such words ("Nova Novara") is read
-- once, at the first.
CREATE FUNCTION search_first_word(vector tsvector, prefix text, in_name boolean) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT min(w.lexeme COLLATE "C") FROM unnest(vector) AS w
  WHERE starts_with(w.lexeme, prefix) AND ('A' = ANY (w.weights)) = in_name
$$;

-- Tables that already hold rows and search vectors get their words now; on a fresh database the
-- vectors are created at start-up, and setup_search_words() is called then.
DO $$
DECLARE
  tbl text;
BEGIN
  FOREACH tbl IN ARRAY ARRAY['organizations', 'people', 'library_entries', 'ledger_entries', 'lists', 'keywords'] LOOP
    IF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = format('%I', tbl)::regclass AND attname = 'search_vector' AND NOT attisdropped) THEN
      PERFORM setup_search_words(tbl);
    END IF;
  END LOOP;
END $$;
