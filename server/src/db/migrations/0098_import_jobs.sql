-- Spreadsheet imports run as jobs (server/src/resources/import-job.ts, docs/jobs.md).
--
-- A job may hold one stored file it works on: the foreign key keeps the file store's sweep
-- away from the file until the job ends (succeeded, or failed for good), when the worker sets
-- the column to NULL in the same statement that settles the job (jobs/jobs.repository.ts).
ALTER TABLE jobs
  ADD COLUMN file_sha256 text,
  ADD CONSTRAINT jobs_file FOREIGN KEY (tenant_id, file_sha256) REFERENCES stored_files (tenant_id, sha256);
CREATE INDEX jobs_file ON jobs (tenant_id, file_sha256) WHERE file_sha256 IS NOT NULL;

-- How far an import job got: rows up to last_row are done, with the counts and row errors so
-- far (tally). Written in the transaction that writes a batch's rows, so a retried job
-- carries on after the last committed batch and never writes a row twice.
CREATE TABLE import_job_progress (
  tenant_id uuid NOT NULL,
  job_id uuid NOT NULL,
  last_row integer NOT NULL CHECK (last_row >= 1),
  tally jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, job_id),
  FOREIGN KEY (tenant_id, job_id) REFERENCES jobs (tenant_id, id) ON DELETE CASCADE
);
SELECT enable_tenant_isolation('import_job_progress');
