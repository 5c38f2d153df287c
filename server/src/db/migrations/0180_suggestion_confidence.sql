-- How sure processing was of each suggestion (issue 29 item 5, docs/review.md "Confidence").
-- Each place a suggestion was found keeps the confidence of what was found there (the trained
-- tagger's, the rules', a table column's, the tenant's own records', a deal's); a suggestion's
-- confidence is the highest of its provenance, kept on its row so its list orders by it from an
-- index. NULL where nothing says (provenance written before this migration, a suggestion made
-- without a source).
ALTER TABLE suggestion_provenance ADD COLUMN confidence real CHECK (confidence BETWEEN 0 AND 1);
ALTER TABLE organizations ADD COLUMN confidence real CHECK (confidence BETWEEN 0 AND 1);
ALTER TABLE people ADD COLUMN confidence real CHECK (confidence BETWEEN 0 AND 1);
ALTER TABLE ledger_entries ADD COLUMN confidence real CHECK (confidence BETWEEN 0 AND 1);
-- The review screens list a tenant's suggestions most confident first.
CREATE INDEX organizations_confidence ON organizations (tenant_id, status, confidence DESC NULLS LAST);
CREATE INDEX people_confidence ON people (tenant_id, status, confidence DESC NULLS LAST);
CREATE INDEX ledger_entries_confidence ON ledger_entries (tenant_id, status, confidence DESC NULLS LAST);

-- The row's confidence follows its provenance whatever writes it — a suggestion made or joined,
-- a source reprocessed or deleted, a merge moving provenance or its undo putting it back — once
-- per statement, for the records the statement touched. A reviewed resource's kind is its table.
CREATE FUNCTION refresh_suggestion_confidence() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  kind text;
BEGIN
  FOR kind IN SELECT DISTINCT resource FROM touched LOOP
    EXECUTE format($sql$
      UPDATE %1$I t SET confidence = best.confidence
      FROM (SELECT DISTINCT ON (c.tenant_id, c.record_id) c.tenant_id, c.record_id,
                   (SELECT max(p.confidence) FROM suggestion_provenance p
                     WHERE p.tenant_id = c.tenant_id AND p.resource = %2$L AND p.record_id = c.record_id) AS confidence
              FROM touched c WHERE c.resource = %2$L) best
      WHERE t.tenant_id = best.tenant_id AND t.id = best.record_id AND t.confidence IS DISTINCT FROM best.confidence
    $sql$, kind, kind);
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER suggestion_provenance_confidence_insert AFTER INSERT ON suggestion_provenance
  REFERENCING NEW TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION refresh_suggestion_confidence();
CREATE TRIGGER suggestion_provenance_confidence_delete AFTER DELETE ON suggestion_provenance
  REFERENCING OLD TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION refresh_suggestion_confidence();
-- A move (merge, undo) changes the records on both sides: the new side here, the old one below.
CREATE TRIGGER suggestion_provenance_confidence_moved_to AFTER UPDATE ON suggestion_provenance
  REFERENCING NEW TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION refresh_suggestion_confidence();
CREATE TRIGGER suggestion_provenance_confidence_moved_from AFTER UPDATE ON suggestion_provenance
  REFERENCING OLD TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION refresh_suggestion_confidence();

-- The tenant's threshold: processing suggests nothing it is less sure of (docs/processing.md
-- "Confidence"); 0.6 measured on the development sets (docs/BENCHMARKS.md).
ALTER TABLE tenants ADD COLUMN suggestion_min_confidence real NOT NULL DEFAULT 0.6
  CONSTRAINT tenants_suggestion_min_confidence_range CHECK (suggestion_min_confidence BETWEEN 0 AND 1);
