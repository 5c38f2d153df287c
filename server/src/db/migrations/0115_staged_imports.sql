-- Staged writes: an all-or-nothing spreadsheet import job (server/src/resources/import-job.ts,
-- docs/jobs.md) writes its rows in many short transactions instead of one long one (which on
-- PGlite held the only connection for the whole import), yet nothing of it may be seen until
-- it has all been written, and a failure must leave nothing. So its writes are staged:
--
--   * a transaction with app.import_stage set (the job's id) inserts every row of an engine
--     table, and every audit entry, with staged_by = that id (the column's default);
--   * the restrictive policy staged_rows hides a staged row from every transaction but those of
--     its own stage — lists, counts, search, relations, exports, history all go through it;
--   * staged rows are not counted (entity_counter_kind is NULL for them): the counters move
--     when the stage is published;
--   * an edit of a record that existed before the import cannot be staged in its row, which
--     every reader sees: each transaction of the stage puts the import's version of the record
--     in place while it works (import_stage_touch) and the record as it was back before it
--     commits (import_stage_park), keeping both in import_staged_updates;
--   * publishing (import_stage_publish) is one short transaction: staged_by cleared, the
--     records' import versions put in place — unless a record changed meanwhile, which fails
--     the attempt, as a write meeting changed data fails the request's import;
--   * discarding (import_stage_discard) deletes the stage's rows, on failure, on cancel and
--     at the start of a retried attempt.

CREATE FUNCTION app_import_stage() RETURNS uuid
LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('app.import_stage', true), '')::uuid
$$;

-- The staged_by column (a stable default: existing rows are not rewritten), its index, and
-- the policy hiding staged rows: part of every engine table's block (setup_entity_table, below);
-- the conformance test checks each has them.
CREATE FUNCTION enable_staged_writes(tbl text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('ALTER TABLE %I ADD COLUMN IF NOT EXISTS staged_by uuid DEFAULT app_import_stage()', tbl);
  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I (staged_by) WHERE staged_by IS NOT NULL', tbl || '_staged', tbl);
  IF NOT EXISTS (SELECT 1 FROM pg_policy WHERE polrelid = format('%I', tbl)::regclass AND polname = 'staged_rows') THEN
    EXECUTE format('CREATE POLICY staged_rows ON %I AS RESTRICTIVE USING (staged_by IS NULL OR staged_by = app_import_stage())', tbl);
  END IF;
END $$;

-- setup_entity_table (0084) sets up staged writes too: its block as it was, then this.
ALTER FUNCTION setup_entity_table(text, text, text[]) RENAME TO setup_entity_table_without_staging;
CREATE FUNCTION setup_entity_table(tbl text, counter_kind text DEFAULT NULL, indexed text[] DEFAULT '{}')
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM setup_entity_table_without_staging(tbl, counter_kind, indexed);
  PERFORM enable_staged_writes(tbl);
END $$;

-- Every engine table, and the audit log (an import's entries are staged with its rows).
SELECT enable_staged_writes(tbl) FROM unnest(ARRAY[
  'organizations', 'people', 'keywords', 'library_entries', 'ledger_entries', 'investments', 'terminology',
  'geos', 'cities', 'source_urls', 'tagging_rules', 'lists', 'raw_data_buckets', 'raw_data', 'audit_entries']) AS tbl;

-- Staged rows count nowhere until they are published.
CREATE OR REPLACE FUNCTION entity_counter_kind(fixed text, row_data jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN row_data ->> 'staged_by' IS NOT NULL THEN NULL ELSE
    (CASE WHEN fixed = '*' THEN row_data ->> 'kind' ELSE fixed END
     || CASE WHEN row_data ->> 'status' IN ('suggested', 'rejected') THEN ':' || (row_data ->> 'status') ELSE '' END)
  END
$$;

-- The stages that exist, so that one whose job ended without publishing or discarding it (its
-- worker died on the last attempt) is found and discarded (import_stage_sweep).
CREATE TABLE import_stages (
  tenant_id uuid NOT NULL,
  job_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, job_id),
  FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
);
SELECT enable_tenant_isolation('import_stages');

-- Records that existed before the import and that it edits: the record as it was when the
-- import first touched it (before) and as the import leaves it (after, written at the end of
-- each transaction). `applied`: the import's version is in the row now (inside a transaction
-- of the stage, between touch and park; never committed so).
CREATE TABLE import_staged_updates (
  tenant_id uuid NOT NULL,
  job_id uuid NOT NULL,
  tbl text NOT NULL,
  record_id uuid NOT NULL,
  before jsonb NOT NULL,
  after jsonb,
  applied boolean NOT NULL DEFAULT false,
  PRIMARY KEY (tenant_id, job_id, tbl, record_id),
  FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
);
SELECT enable_tenant_isolation('import_staged_updates');

-- The columns a record's image sets: all but its key, generated columns and the stage marker.
CREATE FUNCTION staged_image_columns(tbl text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
  WHERE attrelid = format('%I', tbl)::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
    AND attname NOT IN ('id', 'tenant_id', 'staged_by')
$$;

-- Sets a record's columns to an image (to_jsonb of the row); false when the row is gone.
CREATE FUNCTION import_stage_set_row(tbl text, record uuid, image jsonb) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  cols text := staged_image_columns(tbl);
  found_row boolean;
BEGIN
  EXECUTE format('UPDATE %I t SET (%s) = (SELECT %s FROM jsonb_populate_record(NULL::%I, $1)) WHERE t.id = $2 RETURNING true', tbl, cols, cols, tbl)
    INTO found_row USING image, record;
  RETURN coalesce(found_row, false);
END $$;

-- The engine tables with staged rows.
CREATE FUNCTION staged_tables() RETURNS SETOF text
LANGUAGE sql STABLE AS $$
  SELECT c.relname::text FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
  WHERE a.attname = 'staged_by' AND NOT a.attisdropped AND c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace
$$;

-- Before the stage's transaction edits a record that existed before the import: keeps the
-- record as it is (the first time), or puts the import's version of it in place (when an
-- earlier transaction of the stage edited it). Nothing for the stage's own rows.
CREATE FUNCTION import_stage_touch(job uuid, tbl text, record uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  staged import_staged_updates;
BEGIN
  SELECT * INTO staged FROM import_staged_updates s WHERE s.job_id = job AND s.tbl = import_stage_touch.tbl AND s.record_id = record;
  IF NOT FOUND THEN
    EXECUTE format('INSERT INTO import_staged_updates (tenant_id, job_id, tbl, record_id, before, applied)
                    SELECT app_tenant_id(), $1, $2, t.id, to_jsonb(t), true FROM %I t WHERE t.id = $3 AND t.staged_by IS NULL', tbl)
      USING job, tbl, record;
  ELSIF NOT staged.applied THEN
    PERFORM import_stage_set_row(tbl, record, staged.after);
    UPDATE import_staged_updates s SET applied = true WHERE s.job_id = job AND s.tbl = import_stage_touch.tbl AND s.record_id = record;
  END IF;
END $$;

-- At the end of each transaction of the stage: the import's version of each record it
-- touched is kept, and the record put back as it was, so no other transaction sees it.
CREATE FUNCTION import_stage_park(job uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  staged import_staged_updates;
  image jsonb;
BEGIN
  FOR staged IN SELECT * FROM import_staged_updates s WHERE s.job_id = job AND s.applied LOOP
    EXECUTE format('SELECT to_jsonb(t) FROM %I t WHERE t.id = $1', staged.tbl) INTO image USING staged.record_id;
    UPDATE import_staged_updates s SET after = image, applied = false
    WHERE s.job_id = job AND s.tbl = staged.tbl AND s.record_id = staged.record_id;
    PERFORM import_stage_set_row(staged.tbl, staged.record_id, staged.before);
  END LOOP;
END $$;

-- Makes the stage live in one transaction. A record the import edits that changed (or went)
-- since the import first read it raises import_conflict: nothing is published, and the attempt
-- fails (a retry imports again from the data as it is then). Sees the stage's rows whatever
-- stage the transaction is in.
CREATE FUNCTION import_stage_publish(job uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  previous text := current_setting('app.import_stage', true);
  staged import_staged_updates;
  current_image jsonb;
  tbl text;
BEGIN
  PERFORM set_config('app.import_stage', job::text, true);
  FOR staged IN SELECT * FROM import_staged_updates s WHERE s.job_id = job ORDER BY s.tbl, s.record_id LOOP
    EXECUTE format('SELECT to_jsonb(t) FROM %I t WHERE t.id = $1 FOR UPDATE', staged.tbl) INTO current_image USING staged.record_id;
    IF current_image IS DISTINCT FROM staged.before THEN
      RAISE EXCEPTION 'import_conflict: % % was changed or deleted while the import ran', staged.tbl, staged.record_id
        USING ERRCODE = 'P0001';
    END IF;
    PERFORM import_stage_set_row(staged.tbl, staged.record_id, staged.after);
  END LOOP;
  DELETE FROM import_staged_updates s WHERE s.job_id = job;
  FOR tbl IN SELECT staged_tables() LOOP
    EXECUTE format('UPDATE %I SET staged_by = NULL WHERE staged_by = $1', tbl) USING job;
  END LOOP;
  DELETE FROM import_stages s WHERE s.job_id = job;
  PERFORM set_config('app.import_stage', coalesce(previous, ''), true);
END $$;

-- Deletes what the stage wrote. Records it edited are as they were already (park runs before
-- every commit). Sees the stage's rows whatever stage the transaction is in.
CREATE FUNCTION import_stage_discard(job uuid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  previous text := current_setting('app.import_stage', true);
  tbl text;
BEGIN
  PERFORM set_config('app.import_stage', job::text, true);
  DELETE FROM import_staged_updates s WHERE s.job_id = job;
  FOR tbl IN SELECT staged_tables() LOOP
    EXECUTE format('DELETE FROM %I WHERE staged_by = $1', tbl) USING job;
  END LOOP;
  DELETE FROM import_stages s WHERE s.job_id = job;
  PERFORM set_config('app.import_stage', coalesce(previous, ''), true);
END $$;

-- Discards the stages of the tenant's jobs that ended without publishing or discarding them.
CREATE FUNCTION import_stage_sweep() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  ended uuid;
  swept integer := 0;
BEGIN
  FOR ended IN SELECT s.job_id FROM import_stages s JOIN jobs j ON j.tenant_id = s.tenant_id AND j.id = s.job_id
               WHERE j.status IN ('succeeded', 'failed') LOOP
    PERFORM import_stage_discard(ended);
    swept := swept + 1;
  END LOOP;
  RETURN swept;
END $$;
