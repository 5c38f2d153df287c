-- Stored files (docs/storage.md): one row per file a tenant has in the file
-- store, keyed by the SHA-256 of its bytes, so the same bytes are stored once
-- per tenant. A file is written before the row that uses it commits; this
-- table is how a file nobody came to use is found and removed again:
--
--   * put (server/src/storage/files.ts) stores the bytes and upserts the row,
--     setting last_stored_at, in one transaction that holds the row's lock
--     while the object is made visible;
--   * a row that uses a file references it with a foreign key
--     (tenant_id, <its sha256 column>) → stored_files (tenant_id, sha256),
--     so a file cannot be removed while it is used, nor used once removed;
--   * the sweep removes rows (and their bytes) that no foreign key points at
--     and that were last stored longer ago than a grace period.

CREATE TABLE stored_files (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size bigint NOT NULL CHECK (size >= 0),
  -- Sniffed from the bytes, never taken from the client.
  content_type text NOT NULL CHECK (char_length(content_type) BETWEEN 1 AND 255),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_stored_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, sha256)
);
CREATE INDEX stored_files_last_stored ON stored_files (tenant_id, last_stored_at);
SELECT enable_tenant_isolation('stored_files');
