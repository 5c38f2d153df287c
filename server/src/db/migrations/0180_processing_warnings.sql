-- Nothing lost without a word (issue 26, docs/processing.md "Warnings"): what reading an item's
-- file left out or could not read — pages or characters past a limit, zip entries too many or
-- nested too deep, the time limit, an attachment that could not be read, no text at all — kept
-- with the item as the sentences the analyst reads, replaced by each processing.
ALTER TABLE raw_data
  ADD COLUMN processing_warnings text[] NOT NULL DEFAULT '{}',
  -- The list's filter and "completed with warnings".
  ADD COLUMN has_warnings boolean GENERATED ALWAYS AS (cardinality(processing_warnings) > 0) STORED;
CREATE INDEX raw_data_has_warnings ON raw_data (tenant_id, has_warnings);
