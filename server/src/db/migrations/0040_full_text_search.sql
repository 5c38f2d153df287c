-- Full-text search (lists' `search=`, quick search's third tier): the SQL
-- functions the engine builds each resource's search vector and query with.
-- The vectors themselves — a generated `search_vector` column and its GIN
-- index per table — are derived from the resource declarations' `search`
-- fields at start-up (server/src/resources/search-index.ts), not written here.

-- The words a text is searched by: lower-case, unaccented, ASCII punctuation
-- turned into spaces, so "jane.doe@acme.com" and "https://acme.com/about"
-- are the words jane, doe, acme, com, about (found by "acme" as by the whole
-- address, which the query side splits the same way).
CREATE FUNCTION search_words(VARIADIC parts text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(search_text(VARIADIC parts), '[!-/:-@[-`{-~]+', ' ', 'g')
$$;

-- A search vector of the given weight ('A' ranks first) over some parts.
CREATE FUNCTION search_vector_of("char", VARIADIC parts text[]) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('simple'::regconfig, search_words(VARIADIC parts)), $1)
$$;

-- The query for a user's search text: every word must match the start of a
-- word of the record (prefix matching), optionally only words of the given
-- weights ('A': the names). NULL when the text has no words.
CREATE FUNCTION search_query(q text, in_weights text DEFAULT '') RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT string_agg('''' || replace(replace(w.lexeme, '\', '\\'), '''', '''''') || ''':*' || in_weights, ' & ')::tsquery
  FROM unnest(to_tsvector('simple'::regconfig, search_words(q))) AS w
$$;

-- Under row-level security a condition can use an index only when its
-- operator is LEAKPROOF (see 0003). ts_match_vq only compares its arguments.
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION ts_match_vq(tsvector, tsquery) LEAKPROOF;
  ELSE
    RAISE WARNING 'intelnotes: run as a superuser to let full-text search use its indexes under row-level security: ALTER FUNCTION ts_match_vq(tsvector, tsquery) LEAKPROOF;';
  END IF;
END $$;

-- The trigram documents the list search read before are replaced by the
-- search vectors: drop them and their indexes (no longer kept up to date on
-- every write).
ALTER TABLE organizations DROP COLUMN search_document;
ALTER TABLE people DROP COLUMN search_document;
ALTER TABLE keywords DROP COLUMN search_document;
ALTER TABLE terminology DROP COLUMN search_document;
ALTER TABLE geos DROP COLUMN search_document;
ALTER TABLE cities DROP COLUMN search_document;
ALTER TABLE ledger_entries DROP COLUMN search_document;
ALTER TABLE investments DROP COLUMN search_document;
ALTER TABLE library_entries DROP COLUMN search_document;
ALTER TABLE lists DROP COLUMN search_document;
ALTER TABLE source_urls DROP COLUMN search_document;
ALTER TABLE tagging_rules DROP COLUMN search_document;
