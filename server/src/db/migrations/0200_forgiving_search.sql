-- Forgiving search (issue 27 item 5): names across transliterations, phone numbers in any
-- format, and typos in list search the way quick search tolerates them. docs/engine.md
-- "Forgiving search" explains the rules; this file holds the SQL they are made of.
--
-- The stored search vectors are built with these functions, so every table's vector (and the
-- word tables read off it: search_words, search_name_words, search_vocabulary) must be built
-- anew. The vectors are generated columns the engine derives from the declarations at start-up
-- (server/src/resources/search-index.ts applySearchIndexes, run right after the migrations in
-- the same start): this migration marks every vector stale instead of rewriting the tables
-- itself, so each table is rewritten once — the vectors of people and organizations also gain
-- their phone numbers, a change of declaration that rebuilds them anyway — table by table, each
-- in its own transaction, rather than every table in this one.

-- Transliterations a reader may type for the same name, folded to one spelling on both sides
-- (the stored words and the typed ones), after search_text's lower-casing and unaccent (which
-- already turns ß into ss, æ into ae, ø into o, ł into l): Lindquist and Lindqvist both become
-- lindkvist, Mueller and Müller (muller) muller, Jørgensen and Joergensen jorgensen, Aarhus and
-- Århus arhus. Each rule maps a spelling onto a shorter or equal one that its own prefixes map
-- onto too ("lindq" → lindk, "mue" → mu), so a typed prefix still starts the folded word.
CREATE FUNCTION search_fold(words text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT regexp_replace(regexp_replace(regexp_replace(regexp_replace(words,
    'q[uv]', 'kv', 'g'),
    'q', 'k', 'g'),
    '([aou])e', '\1', 'g'),
    'aa', 'a', 'g')
$$;

-- The words a text is searched by (migration 0040), now folded as above.
CREATE OR REPLACE FUNCTION search_words(VARIADIC parts text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT search_fold(regexp_replace(search_text(VARIADIC parts), '[!-/:-@[-`{-~]+', ' ', 'g'))
$$;

-- The country calling code a string of international digits starts with (NULL when none does):
-- every code of libphonenumber-js's metadata and the non-geographic ones. The codes are
-- prefix-free, so at most one matches.
CREATE FUNCTION search_phone_country_code(digits text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT substring(digits from '^(1|7|20|27|30|31|32|33|34|36|39|40|41|43|44|45|46|47|48|49|51|52|53|54|55|56|57|58|60|61|62|63|64|65|66|81|82|84|86|90|91|92|93|94|95|98|211|212|213|216|218|220|221|222|223|224|225|226|227|228|229|230|231|232|233|234|235|236|237|238|239|240|241|242|243|244|245|246|247|248|249|250|251|252|253|254|255|256|257|258|260|261|262|263|264|265|266|267|268|269|290|291|297|298|299|350|351|352|353|354|355|356|357|358|359|370|371|372|373|374|375|376|377|378|380|381|382|383|385|386|387|389|420|421|423|500|501|502|503|504|505|506|507|508|509|590|591|592|593|594|595|596|597|598|599|670|672|673|674|675|676|677|678|679|680|681|682|683|685|686|687|688|689|690|691|692|800|808|850|852|853|855|856|870|878|880|881|882|883|886|888|960|961|962|963|964|965|966|967|968|970|971|972|973|974|975|976|977|979|992|993|994|995|996|998)')
$$;

-- The words a record's phone numbers are found by: digits only, whatever the punctuation.
-- A number stored with its country (E.164, as values.ts parsePhone keeps every number it can
-- validate: +442079460958) gives its international digits (442079460958) and its national
-- form with the trunk prefix most countries dial (02079460958; a national number that starts
-- with 0 already, as Italy's, is kept as it is). A number stored without a country (one that
-- could not be validated: "020 7946 0958") gives its digits, and without the trunk 0 as well
-- (2079460958), which an international query's national part matches. An extension is no
-- part of the number.
CREATE FUNCTION search_phone_words(phones text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT string_agg(words, ' ') FROM (
    SELECT CASE
      WHEN international AND country IS NOT NULL
        THEN digits || ' ' || CASE WHEN starts_with(national, '0') THEN national ELSE '0' || national END
      WHEN starts_with(digits, '0') AND length(digits) > 1 THEN digits || ' ' || substr(digits, 2)
      ELSE digits
    END AS words
    FROM (
      SELECT number.digits, number.international, country, substr(number.digits, length(country) + 1) AS national
      FROM (
        SELECT regexp_replace(main, '\D', '', 'g') AS digits, main ~ '^\s*(\+|00)' AS international
        FROM (SELECT regexp_replace(phone, '\s*[,;]?\s*(ext|x|#).*$', '', 'i') AS main FROM unnest(phones) AS phone) stripped
      ) raw
      CROSS JOIN LATERAL (SELECT CASE WHEN starts_with(raw.digits, '00') AND raw.international THEN substr(raw.digits, 3) ELSE raw.digits END AS digits, raw.international) number
      CROSS JOIN LATERAL (SELECT CASE WHEN number.international THEN search_phone_country_code(number.digits) END AS country) code
      WHERE number.digits <> ''
    ) numbers
  ) found
$$;

-- A search text that is a phone number (only digits and the punctuation numbers are written
-- with, at least 6 digits), as the tsquery alternatives that find it among search_phone_words'
-- words, each a prefix (the rest of the number may be left out); NULL for any other text.
-- With a country (+44 …, 0044 …): the international digits, and the national digits after the
-- country code — numbers stored without a country hold those — but not a number of another
-- country that happens to share them (stored with its country, it holds its national digits
-- only with a trunk 0). Without one: the digits as typed, and with a trunk 0 when typed
-- without it ("(415) 555-0100" finds +14155550100, stored as 04155550100 too).
CREATE FUNCTION search_phone_query(q text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN international AND country IS NOT NULL
      THEN '''' || digits || ''':* | ''' || substr(digits, length(country) + 1) || ''':*'
    WHEN international OR starts_with(digits, '0') THEN '''' || digits || ''':*'
    ELSE '''' || digits || ''':* | ''0' || digits || ''':*'
  END
  FROM (
    SELECT number.digits, number.international, search_phone_country_code(number.digits) AS country
    FROM (SELECT regexp_replace(q, '\D', '', 'g') AS digits, q ~ '^\s*(\+|00)' AS international) raw
    CROSS JOIN LATERAL (SELECT CASE WHEN starts_with(raw.digits, '00') AND raw.international THEN substr(raw.digits, 3) ELSE raw.digits END AS digits, raw.international) number
    WHERE q ~ '^[\s\d+().\-/]+$' AND length(raw.digits) BETWEEN 6 AND 20
  ) typed
$$;

-- search_query (migration 0040) with a phone number's alternatives: every word as the start of
-- a word of the record, or the number. Names-only queries (weights) have no phone part, as
-- phone numbers are no names.
CREATE OR REPLACE FUNCTION search_query(q text, in_weights text DEFAULT '') RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN phone IS NULL OR in_weights <> '' THEN words ELSE '(' || words || ') | ' || phone END)::tsquery
  FROM (
    SELECT string_agg('''' || replace(replace(w.lexeme, '\', '\\'), '''', '''''') || ''':*' || in_weights, ' & ') AS words
    FROM unnest(to_tsvector('simple'::regconfig, search_words(q))) AS w
  ) typed, search_phone_query(q) AS phone
$$;

-- search_query_in (migration 0170) with the phone alternatives too.
CREATE OR REPLACE FUNCTION search_query_in(tbl text, q text, most integer DEFAULT 16) RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
  typed text;
  words text[];
  parts text[] := '{}';
  phone text := search_phone_query(q);
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
  IF cardinality(parts) = 0 THEN
    RETURN NULL;
  END IF;
  RETURN CASE WHEN phone IS NULL THEN array_to_string(parts, ' & ')
              ELSE '(' || array_to_string(parts, ' & ') || ') | ' || phone END;
END $$;

-- Typo tolerance, one rule for quick search and list search: the caller's tenant's words of a
-- table like a typed word — pg_trgm word similarity at or above its threshold (0.6), words
-- containing the typed one first, then the likest, then in word order — from the names' words
-- (`names`: search_name_words, what quick search ranks names by) or from every word of the
-- records (search_vocabulary, what a list searches), at most `most`. The tenant is named, not
-- left to row-level security alone: it leads the trigram indexes, so the index reads only the
-- tenant's words (and a superuser's session, which bypasses the policies, the same).
CREATE FUNCTION search_similar_words(tbl text, typed text, names boolean, most integer) RETURNS SETOF text
LANGUAGE sql STABLE AS $$
  SELECT word FROM (
    SELECT v.word FROM search_name_words v
    WHERE names AND v.tenant_id = app_tenant_id() AND v.record_table = tbl AND typed <% v.word
    UNION ALL
    SELECT v.word FROM search_vocabulary v
    WHERE NOT names AND v.tenant_id = app_tenant_id() AND v.record_table = tbl AND typed <% v.word
  ) alike
  ORDER BY strpos(word, typed) > 0 DESC, word_similarity(typed, word) DESC, word
  LIMIT most
$$;

-- Reads the vocabulary by trigrams as search_name_words is read (migration 0120).
CREATE INDEX search_vocabulary_similar ON search_vocabulary USING gin (tenant_id, record_table, word gin_trgm_ops);

-- A list search forgiving typos (service.ts `list`, when the search as typed finds little): each
-- word typed matches as before, or as one of the `most` words of the tenant's records in this
-- table like it (search_similar_words). NULL when no word typed has a word like it (nothing
-- more would be found). A phone number is found as search_query_in finds it.
CREATE FUNCTION search_query_forgiving(tbl text, q text, most integer DEFAULT 5) RETURNS text
LANGUAGE plpgsql STABLE AS $$
DECLARE
  typed text;
  alike text[];
  parts text[] := '{}';
  forgiven boolean := false;
  phone text := search_phone_query(q);
BEGIN
  FOR typed IN SELECT w.lexeme FROM unnest(to_tsvector('simple'::regconfig, search_words(q))) AS w LOOP
    SELECT array_agg(search_lexeme_literal(s.word)) INTO alike
    FROM search_similar_words(tbl, typed, false, most) AS s(word)
    WHERE NOT starts_with(s.word, typed);
    forgiven := forgiven OR alike IS NOT NULL;
    parts := parts || CASE
      WHEN alike IS NULL THEN search_lexeme_literal(typed) || ':*'
      ELSE '(' || search_lexeme_literal(typed) || ':* | ' || array_to_string(alike, ' | ') || ')'
    END;
  END LOOP;
  IF NOT forgiven THEN
    RETURN NULL;
  END IF;
  RETURN CASE WHEN phone IS NULL THEN array_to_string(parts, ' & ')
              ELSE '(' || array_to_string(parts, ' & ') || ') | ' || phone END;
END $$;

-- The words the tables hold now were folded differently: the vocabulary is written anew from
-- the words the rebuilt vectors give (setup_search_words, run by the rebuild, writes
-- search_words and search_name_words anew, and search_words' statement trigger fills this).
TRUNCATE search_vocabulary;

-- Every stored search vector is stale: a comment other than the one the engine writes makes
-- applySearchIndexes rebuild the column and its words at this start.
DO $$
DECLARE
  tbl text;
BEGIN
  FOR tbl IN
    SELECT c.relname FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attname = 'search_vector' AND NOT a.attisdropped
  LOOP
    EXECUTE format('COMMENT ON COLUMN %I.search_vector IS %L', tbl, 'intelnotes search vector stale: migration 0200');
  END LOOP;
END $$;
