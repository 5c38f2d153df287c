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
-- concurrent write of the same word, and a word too many only matches nothing).
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

-- Every word written to search_words (by its row trigger, or by setup_search_words writing a
-- table's words anew) joins the vocabulary: once per statement, from its new rows.
CREATE FUNCTION add_search_vocabulary() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_vocabulary (tenant_id, record_table, word)
  SELECT DISTINCT tenant_id, record_table, word FROM added_words
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER search_words_vocabulary AFTER INSERT ON search_words
  REFERENCING NEW TABLE AS added_words FOR EACH STATEMENT EXECUTE FUNCTION add_search_vocabulary();

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
