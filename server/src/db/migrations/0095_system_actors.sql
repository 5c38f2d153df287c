-- Writes by jobs and scripts (the engine's system actor) are recorded as such.
-- user_id and user_email name the person who wrote (null for a system write);
-- on_behalf_of_id and on_behalf_of_email the person a system write was done
-- for, when one caused it (e.g. the uploader of the file a job processes).
ALTER TABLE audit_entries
  ADD COLUMN actor text NOT NULL DEFAULT 'user' CHECK (actor IN ('user', 'system')),
  ADD COLUMN on_behalf_of_id uuid,
  ADD COLUMN on_behalf_of_email text,
  ADD CONSTRAINT audit_entries_actor_user CHECK (actor = 'system' OR on_behalf_of_id IS NULL),
  ADD CONSTRAINT audit_entries_actor_system CHECK (actor = 'user' OR user_id IS NULL);
