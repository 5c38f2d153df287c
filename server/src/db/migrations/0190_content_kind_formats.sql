-- What an item is (raw_data.content_kind, the type filter and its counts) for every format
-- processing reads since issue 26: an Outlook .msg is an e-mail, an EPUB, an OpenDocument text
-- or an RTF sent as text/rtf a document, XHTML a page, XML and NDJSON text, Office's
-- macro-enabled and template variants their family — all of them were "other" (or "text").
-- TIFF, BMP and HEIC were already images, PowerPoint and OpenDocument slides presentations,
-- OpenDocument spreadsheets spreadsheets.
--
-- A generated column's expression cannot be altered before PostgreSQL 17 (SET EXPRESSION), so
-- the column is dropped and added again: one rewrite of raw_data under its lock, inside this
-- migration's transaction, the CHECK and the (tenant_id, content_kind) index made again with it
-- (setup_entity_table adds only what is missing). Nothing else refers to the column by number.
ALTER TABLE raw_data DROP COLUMN content_kind;
ALTER TABLE raw_data ADD COLUMN content_kind text GENERATED ALWAYS AS (
  CASE
    WHEN file_type IS NULL THEN 'text'
    WHEN file_type = 'application/pdf' THEN 'pdf'
    WHEN file_type LIKE 'image/%' THEN 'image'
    WHEN file_type IN ('text/html', 'application/xhtml+xml') THEN 'html'
    WHEN file_type IN ('message/rfc822', 'application/vnd.ms-outlook') THEN 'email'
    WHEN file_type IN ('text/csv', 'text/tab-separated-values')
      OR file_type LIKE 'application/vnd.ms-excel%' OR file_type LIKE '%spreadsheet%' THEN 'spreadsheet'
    WHEN file_type LIKE 'application/vnd.ms-powerpoint%' OR file_type LIKE '%presentation%' THEN 'presentation'
    WHEN file_type IN ('application/msword', 'application/rtf', 'text/rtf', 'application/epub+zip')
      OR file_type LIKE 'application/vnd.ms-word%' OR file_type LIKE 'application/vnd.oasis.opendocument.text%'
      OR file_type LIKE '%wordprocessingml%' THEN 'document'
    WHEN file_type IN ('application/zip', 'application/gzip', 'application/x-tar', 'application/x-7z-compressed',
      'application/x-rar-compressed', 'application/vnd.rar', 'application/x-bzip2', 'application/x-xz') THEN 'archive'
    WHEN file_type LIKE 'audio/%' THEN 'audio'
    WHEN file_type LIKE 'video/%' THEN 'video'
    WHEN file_type LIKE 'text/%' OR file_type IN ('application/json', 'application/x-ndjson', 'application/xml') THEN 'text'
    ELSE 'other'
  END
) STORED CHECK (content_kind IN ('text', 'pdf', 'image', 'html', 'email', 'spreadsheet', 'presentation', 'document', 'archive', 'audio', 'video', 'other'));
SELECT setup_entity_table('raw_data', 'raw_data', ARRAY['content_kind']);
