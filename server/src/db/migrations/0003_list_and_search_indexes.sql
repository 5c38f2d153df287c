-- Lists order by `updated_at DESC, id DESC` (the id breaks ties so pages are
-- stable); an index in exactly that order lets a page be read straight off it
-- instead of sorting every row of the tenant.
DROP INDEX organizations_recent;
DROP INDEX people_recent;
CREATE INDEX organizations_recent ON organizations (tenant_id, status, updated_at DESC, id DESC);
CREATE INDEX people_recent ON people (tenant_id, status, updated_at DESC, id DESC);

-- Text search under row-level security.
--
-- RLS evaluates a user's conditions after its own unless their operators are
-- LEAKPROOF; LIKE and pg_trgm's operators are not marked so, which keeps
-- every search from using its trigram index (each row of the tenant would be
-- checked one by one). They only compare their two arguments and raise no
-- errors that depend on row data, so marking them LEAKPROOF is safe; it needs
-- a superuser, and without one search still works, just slower.
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION textlike(text, text) LEAKPROOF;
    ALTER FUNCTION word_similarity_op(text, text) LEAKPROOF;
    ALTER FUNCTION word_similarity_commutator_op(text, text) LEAKPROOF;
  ELSE
    RAISE WARNING 'intelnotes: run as a superuser to let text search use its indexes under row-level security: ALTER FUNCTION textlike(text, text) LEAKPROOF; ALTER FUNCTION word_similarity_op(text, text) LEAKPROOF; ALTER FUNCTION word_similarity_commutator_op(text, text) LEAKPROOF;';
  END IF;
END $$;

-- Trigram indexes that start with the tenant, so a search reads only the
-- tenant's own entries (btree_gin lets a uuid column lead a GIN index).
CREATE EXTENSION IF NOT EXISTS btree_gin;
DROP INDEX organizations_search_name;
DROP INDEX organizations_search_document;
DROP INDEX people_search_name;
DROP INDEX people_search_document;
CREATE INDEX organizations_search_name ON organizations USING gin (tenant_id, search_name gin_trgm_ops);
CREATE INDEX organizations_search_document ON organizations USING gin (tenant_id, search_document gin_trgm_ops);
CREATE INDEX people_search_name ON people USING gin (tenant_id, search_name gin_trgm_ops);
CREATE INDEX people_search_document ON people USING gin (tenant_id, search_document gin_trgm_ops);
