-- Notes on records (docs/notes.md): a research user's or admin's comment on an organization,
-- person, ledger entry or library entry, in light Markdown, with the teammates it mentions.
-- Served by the engine (modules/notes/notes.resource.ts); research users and admins only.
CREATE TABLE notes (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  -- The record the note is on: a relation to several kinds (no foreign key: the engine deletes
  -- a record's notes with it, `onDelete: 'cascade'`, and moves them on a merge).
  record uuid NOT NULL,
  body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 10000),
  -- Users of the tenant the note mentions (research users and admins, checked on save).
  mentions text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (left(regexp_replace(body, '\s+', ' ', 'g'), 120)) STORED,
  PRIMARY KEY (tenant_id, id)
);
-- A record's timeline reads its notes newest first.
CREATE INDEX notes_record_created ON notes (tenant_id, record, created_at DESC, id DESC);
SELECT setup_entity_table('notes', NULL, ARRAY['record', 'mentions']);

-- A personal event (docs/events.md): the one user it is for, e.g. the teammate a note
-- mentions; NULL for the channel's events, as before.
ALTER TABLE events ADD COLUMN recipient_id uuid;

