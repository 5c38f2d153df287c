-- Processing raw data (docs/processing.md): the text read from an item, where its processing
-- is (stage and percent), what was found in it (entities, linked or suggested), and each
-- tenant's learnt entity model.

ALTER TABLE raw_data
  ADD COLUMN processing_percent integer CHECK (processing_percent BETWEEN 0 AND 100),
  ADD COLUMN processed_at timestamptz,
  -- The job processing the item now (rawdata.process): a job superseded by a newer request
  -- finds another id here and changes nothing.
  ADD COLUMN processing_job uuid,
  -- The text read from the file (or the pasted text), up to PROCESSED_TEXT_MAX characters:
  -- searched with the item (its search vector, weight D) and the material of send_to_library.
  ADD COLUMN extracted_text text,
  -- The whole text's length, and how it was read (pdf-text, pdf-ocr, docx, …).
  ADD COLUMN extracted_chars integer CHECK (extracted_chars >= 0),
  ADD COLUMN extraction_method text;

-- Items dropped into such a bucket are processed as soon as they are collected.
ALTER TABLE raw_data_buckets ADD COLUMN process_on_upload boolean NOT NULL DEFAULT false;

-- Where a suggestion's snippet starts in its source's text: start_offset - snippet_start is
-- where the mention starts in the snippet (the review screen highlights it; learning reads it).
ALTER TABLE suggestion_provenance ADD COLUMN snippet_start integer CHECK (snippet_start >= 0);
-- Reprocessing an item finds the suggestions it made.
CREATE INDEX suggestion_provenance_source ON suggestion_provenance (tenant_id, source_kind, source_id);

-- What processing found in an item: one row per distinct entity (type and normalized value),
-- with how often it is mentioned and its first mention; the record it was linked to (an
-- existing organization, person, geo or keyword) or the suggestion it became. Replaced as a
-- whole each time the item is processed; gone with the item.
CREATE TABLE raw_data_entities (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  raw_data_id uuid NOT NULL,
  type text NOT NULL CHECK (type IN ('PER', 'ORG', 'MONEY', 'DATE', 'EMAIL', 'PHONE', 'URL', 'GEO', 'KEYWORD')),
  text text NOT NULL CHECK (length(text) <= 500),
  normalized text NOT NULL CHECK (length(normalized) <= 500),
  mentions integer NOT NULL DEFAULT 1 CHECK (mentions >= 1),
  start_offset integer NOT NULL CHECK (start_offset >= 0),
  end_offset integer NOT NULL CHECK (end_offset >= start_offset),
  snippet text NOT NULL DEFAULT '' CHECK (length(snippet) <= 2000),
  confidence real NOT NULL DEFAULT 1,
  -- Money: {amount, currency, period}; dates: {year, quarter, month, day}.
  value jsonb,
  -- The record it names (linked) or the suggestion made of it: a resource kind and an id.
  record_kind text,
  record_id uuid,
  linked boolean NOT NULL DEFAULT false,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, raw_data_id) REFERENCES raw_data (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX raw_data_entities_item ON raw_data_entities (tenant_id, raw_data_id, type);
CREATE INDEX raw_data_entities_record ON raw_data_entities (tenant_id, record_kind, record_id) WHERE record_id IS NOT NULL;
SELECT enable_tenant_isolation('raw_data_entities');

-- Each tenant's entity model, learnt from its review decisions (processing/entities
-- TenantModel): retrained when the decisions it was trained on are no longer all of them.
CREATE TABLE entity_models (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  model jsonb NOT NULL,
  decisions integer NOT NULL CHECK (decisions >= 0),
  -- A digest of the decisions trained on: another digest means the model is stale.
  decisions_digest text NOT NULL,
  trained_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id)
);
SELECT enable_tenant_isolation('entity_models');

-- Processing looks names found in a text up among these by their keys (the gazetteer).
CREATE INDEX IF NOT EXISTS keywords_name_keys ON keywords USING gin (name_keys);
CREATE INDEX IF NOT EXISTS terminology_name_keys ON terminology USING gin (name_keys);
CREATE INDEX IF NOT EXISTS geos_name_keys ON geos USING gin (name_keys);
CREATE INDEX IF NOT EXISTS cities_name_keys ON cities USING gin (name_keys);

-- The library entry an item was sent to (POST raw-data/send_to_library): sending it again
-- updates that entry rather than making another.
ALTER TABLE raw_data ADD COLUMN library_entry uuid;
