-- Raw data (SPEC §3, docs/rawdata.md): buckets, and the items collected into them — pasted
-- text and/or a stored file, a source URL, a processing status.

CREATE TABLE raw_data_buckets (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  name_keys text[] NOT NULL DEFAULT '{}',
  -- Buckets are research material (readAccess research): the column keeps the counters' rule.
  visibility text NOT NULL DEFAULT 'hidden' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (name) STORED,
  search_name text GENERATED ALWAYS AS (search_text(name)) STORED,
  PRIMARY KEY (tenant_id, id)
);
-- Names are unique per tenant ignoring case (the declaration's beforeSave says so first).
CREATE UNIQUE INDEX raw_data_buckets_name_key ON raw_data_buckets (tenant_id, lower(name));
CREATE INDEX raw_data_buckets_search_name ON raw_data_buckets USING gin (tenant_id, search_name gin_trgm_ops);
SELECT setup_entity_table('raw_data_buckets', 'buckets');

CREATE TABLE raw_data (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  bucket uuid,
  title text,
  text text,
  -- The stored file (docs/storage.md): its hash is its key, the rest as received and sniffed.
  file_sha256 text,
  file_name text,
  file_type text,
  file_size bigint CHECK (file_size >= 0),
  -- What the item is, for the type counts and the type filter: a family of the sniffed type.
  content_kind text GENERATED ALWAYS AS (
    CASE
      WHEN file_type IS NULL THEN 'text'
      WHEN file_type = 'application/pdf' THEN 'pdf'
      WHEN file_type LIKE 'image/%' THEN 'image'
      WHEN file_type IN ('text/html', 'application/xhtml+xml') THEN 'html'
      WHEN file_type = 'message/rfc822' THEN 'email'
      WHEN file_type IN ('text/csv', 'text/tab-separated-values', 'application/vnd.ms-excel')
        OR file_type LIKE '%spreadsheet%' THEN 'spreadsheet'
      WHEN file_type = 'application/vnd.ms-powerpoint' OR file_type LIKE '%presentation%' THEN 'presentation'
      WHEN file_type IN ('application/msword', 'application/rtf', 'application/vnd.oasis.opendocument.text')
        OR file_type LIKE '%wordprocessingml%' THEN 'document'
      WHEN file_type IN ('application/zip', 'application/gzip', 'application/x-tar', 'application/x-7z-compressed',
        'application/x-rar-compressed', 'application/vnd.rar', 'application/x-bzip2', 'application/x-xz') THEN 'archive'
      WHEN file_type LIKE 'audio/%' THEN 'audio'
      WHEN file_type LIKE 'video/%' THEN 'video'
      WHEN file_type LIKE 'text/%' OR file_type = 'application/json' THEN 'text'
      ELSE 'other'
    END
  ) STORED CHECK (content_kind IN ('text', 'pdf', 'image', 'html', 'email', 'spreadsheet', 'presentation', 'document', 'archive', 'audio', 'video', 'other')),
  source uuid,
  -- The first item of the tenant holding the same file, when this one repeats it.
  duplicate_of uuid,
  processing_status text NOT NULL DEFAULT 'pending' CHECK (processing_status IN ('pending', 'processing', 'completed', 'error')),
  processing_stage text,
  processing_error text,
  visibility text NOT NULL DEFAULT 'hidden' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (coalesce(nullif(title, ''), file_name, left(text, 100))) STORED,
  search_name text GENERATED ALWAYS AS (search_text(title, file_name)) STORED,
  PRIMARY KEY (tenant_id, id),
  -- An item holds something: text, a file, or both; a file comes with its name, type and size.
  CONSTRAINT raw_data_content CHECK (file_sha256 IS NOT NULL OR text IS NOT NULL),
  CONSTRAINT raw_data_file_described CHECK (
    (file_sha256 IS NULL AND file_name IS NULL AND file_type IS NULL AND file_size IS NULL)
    OR (file_sha256 IS NOT NULL AND file_name IS NOT NULL AND file_type IS NOT NULL AND file_size IS NOT NULL)
  ),
  CONSTRAINT raw_data_file FOREIGN KEY (tenant_id, file_sha256) REFERENCES stored_files (tenant_id, sha256)
);
CREATE INDEX raw_data_file_sha256 ON raw_data (tenant_id, file_sha256, created_at) WHERE file_sha256 IS NOT NULL;
CREATE INDEX raw_data_search_name ON raw_data USING gin (tenant_id, search_name gin_trgm_ops);
SELECT setup_entity_table('raw_data', 'raw_data',
  ARRAY['bucket', 'source', 'duplicate_of', 'content_kind', 'processing_status', 'visibility']);

-- A stored file an upload is working on: from the put that stored it (same transaction) until
-- the transaction that writes the row using it (which deletes the hold), or until the upload
-- fails (FileStore.discard removes the hold and the file, when nothing else uses it). The
-- foreign key keeps the sweep away meanwhile. `holder` names the process: at start the holds
-- a dead process left are released (FileStore.releaseAbandonedHolds), so a crash between
-- storing a file and committing its row leaves nothing behind.
CREATE TABLE stored_file_holds (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  sha256 text NOT NULL,
  holder text NOT NULL,
  -- Whether the put that took the hold stored the file first (only then may a failure remove it at once).
  created_file boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, sha256) REFERENCES stored_files (tenant_id, sha256) ON DELETE CASCADE
);
CREATE INDEX stored_file_holds_file ON stored_file_holds (tenant_id, sha256);
CREATE INDEX stored_file_holds_holder ON stored_file_holds (holder, created_at);
SELECT enable_tenant_isolation('stored_file_holds');

-- Which put stored a file last: a failed upload removes the file at once only when no other
-- put came after its own (FileStore.discard).
ALTER TABLE stored_files ADD COLUMN last_put uuid;

-- Direct uploads (POST raw-data/direct-upload/initiate/ → PUT the bytes → complete/): what was
-- announced (size, SHA-256, name, the item's fields), until when the signed URL holds, and
-- the file once its bytes arrived (a hold keeps it until complete/ creates the item).
CREATE TABLE raw_data_direct_uploads (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  size bigint NOT NULL CHECK (size >= 1),
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  file_name text NOT NULL,
  fields jsonb NOT NULL DEFAULT '{}',
  -- The PUT URL carries a random token; only its SHA-256 is kept (the URL is the credential).
  token_sha256 text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Set when the bytes were received: what arrived, and the hold that keeps them.
  received_sha256 text,
  received_size bigint,
  received_type text,
  hold_id uuid,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX raw_data_direct_uploads_expiry ON raw_data_direct_uploads (tenant_id, expires_at);
SELECT enable_tenant_isolation('raw_data_direct_uploads');
