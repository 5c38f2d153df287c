-- Raw data analysis reports (docs/processing.md "Analysis report"): the job that made one
-- (its id is the report's task id) and the two files it wrote, kept in the file store.
CREATE TABLE raw_data_reports (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  job_id uuid NOT NULL,
  items integer NOT NULL CHECK (items >= 0),
  xlsx_sha256 text NOT NULL,
  html_sha256 text NOT NULL,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, job_id),
  FOREIGN KEY (tenant_id, xlsx_sha256) REFERENCES stored_files (tenant_id, sha256),
  FOREIGN KEY (tenant_id, html_sha256) REFERENCES stored_files (tenant_id, sha256)
);
SELECT enable_tenant_isolation('raw_data_reports');
