-- The open event streams of every API process (server/src/events/hub.ts, docs/events.md), so
-- that the per-user stream limit holds across processes: opening a stream counts the user's
-- registered streams and marks the oldest beyond the limit evicted; the process holding one
-- is told (NOTIFY) and closes it. A process renews its streams' rows every third of the lease
-- (EVENTS_STREAM_LEASE_MS); the rows of a process that died stop being renewed and are
-- removed once their lease has passed, so they never count for long.
CREATE TABLE event_streams (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  user_id uuid NOT NULL,
  -- The order of the user's streams (the oldest is closed first): clock time, since streams
  -- of one user are registered one at a time (an advisory lock) and each in its own transaction.
  opened_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  renewed_at timestamptz NOT NULL DEFAULT now(),
  -- Beyond the user's limit: no longer counted, closed by its process (then the row goes).
  evicted boolean NOT NULL DEFAULT false,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX event_streams_user ON event_streams (tenant_id, user_id, opened_at);

SELECT enable_tenant_isolation('event_streams');
