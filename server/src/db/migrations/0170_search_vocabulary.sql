-- A list search matches every word typed as the start of a word of the record: 'garcia:*'.
-- In the GIN index of the search vectors such a prefix is a partial match, which collects the
-- entries of every word with that prefix across all tenants into a bitmap before the tenant's
-- are picked out — its cost follows the word's frequency in the whole table, and a search of
-- two words pays it twice (bench/ on a 400,000-row tenant: "maria lopez" 5.5 ms in the index
-- with prefixes, 1.6 ms with the same words exact). search_vocabulary holds the distinct
-- words of each tenant's records per table, in word order: a prefix is a short range of it,
-- and the words found there, written exact and joined by OR, match the same records as the
-- prefix did (search_query_in below). Like search_name_words, a word stays when its last
-- record goes (a word no record holds matches nothing; deleting it would race with a
-- concurrent write of the same word); setup_search_words(table, true) writes it anew.
CREATE TABLE search_vocabulary (
  tenant_id uuid NOT NULL,
  record_table text NOT NULL,
  word text NOT NULL
);
-- text_pattern_ops: a prefix is a bytewise range under any collation.
CREATE UNIQUE INDEX search_vocabulary_prefix ON search_vocabulary (tenant_id, record_table, word text_pattern_ops);
ALTER TABLE search_vocabulary ENABLE ROW LEVEL SECURITY;
ALTER TABLE search_vocabulary FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON search_vocabulary USING (tenant_id = app_tenant_id()) WITH CHECK (tenant_id = app_tenant_id());

-- As in 0120, and every new word of a record also joins the tenant's vocabulary.
CREATE OR REPLACE FUNCTION maintain_search_words() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  source_table text := TG_TABLE_NAME;
  gone record;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.search_vector IS NOT DISTINCT FROM OLD.search_vector THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
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
      RETURNING in_name, word),
    named AS (
      INSERT INTO search_name_words (tenant_id, record_table, word)
      SELECT NEW.tenant_id, source_table, added.word FROM added WHERE added.in_name
      ON CONFLICT DO NOTHING)
    INSERT INTO search_vocabulary (tenant_id, record_table, word)
    SELECT DISTINCT NEW.tenant_id, source_table, added.word FROM added
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION setup_search_words(tbl text, rebuild boolean DEFAULT false)
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
    DELETE FROM search_vocabulary WHERE record_table = tbl;
    EXECUTE format(
      'INSERT INTO search_words (tenant_id, record_table, in_name, word, record_id)
       SELECT t.tenant_id, %L, w.in_name, w.word, t.id FROM %I t, search_vector_words(t.search_vector) w',
      tbl, tbl);
    INSERT INTO search_name_words (tenant_id, record_table, word)
    SELECT DISTINCT tenant_id, record_table, word FROM search_words WHERE record_table = tbl AND in_name;
    INSERT INTO search_vocabulary (tenant_id, record_table, word)
    SELECT DISTINCT tenant_id, record_table, word FROM search_words WHERE record_table = tbl;
  END IF;
END $$;

-- The words of the tables searched so far.
INSERT INTO search_vocabulary (tenant_id, record_table, word)
SELECT DISTINCT tenant_id, record_table, word FROM search_words
ON CONFLICT DO NOTHING;

-- A lexeme as a tsquery literal (quoted, as search_query writes them).
CREATE FUNCTION search_lexeme_literal(lexeme text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT '''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || ''''
$$;

-- search_query(q) for one table of the caller's tenant, with each prefix written as the
-- tenant's words that start with it: ('maria' | 'mariana') & 'lopez'. The same records match
-- (the vocabulary holds every word of the tenant's records, and more). A prefix that starts
-- more than `most` words stays a prefix (each word ORed costs about 0.06 ms in the index, so past
-- some 20 words the OR costs more than the partial match: bench/, "garcia" on 400,000 people, 101
-- words 9.1 ms, the prefix 4.2 ms, the one exact word 2.9 ms); one
-- that starts none is written exact, as no record of the tenant holds it. NULL when the text
-- has no words. STABLE, not IMMUTABLE: it reads the vocabulary, so the engine calls it on
-- its own and passes its text to the statements it plans (their plans then know the words).
CREATE FUNCTION search_query_in(tbl text, q text, most integer DEFAULT 16) RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
  typed text;
  words text[];
  parts text[] := '{}';
BEGIN
  FOR typed IN SELECT w.lexeme FROM unnest(to_tsvector('simple'::regconfig, search_words(q))) AS w LOOP
    SELECT array_agg(search_lexeme_literal(v.word)) INTO words FROM (
      SELECT word FROM search_vocabulary
      WHERE tenant_id = app_tenant_id() AND record_table = tbl
        AND word ~>=~ typed AND word ~<~ (typed || chr(1114111))
      LIMIT most + 1) v;
    parts := parts || CASE
      WHEN words IS NULL THEN search_lexeme_literal(typed)
      WHEN cardinality(words) > most THEN search_lexeme_literal(typed) || ':*'
      ELSE '(' || array_to_string(words, ' | ') || ')'
    END;
  END LOOP;
  RETURN nullif(array_to_string(parts, ' & '), '');
END $$;
