-- Live events (server/src/events/, docs/events.md). An event is a row written in the
-- transaction of the change it announces, so it exists exactly when that change commits.
-- The rows are the replay window of the stream: a reconnecting client gets what it missed
-- from here (Last-Event-ID), and every API process reads new rows from here when told.

-- Each tenant's last event id. Taking the next id locks the tenant's row until the
-- transaction ends, so ids are handed out in commit order with no gaps (a rolled-back
-- transaction gives its id back): a client that has seen id N never later misses an id
-- below N. The price is that transactions publishing to one tenant commit one at a time
-- from their first publish on — which is why publishing comes last in a transaction.
CREATE TABLE event_counters (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  last_id bigint NOT NULL CHECK (last_id >= 0),
  PRIMARY KEY (tenant_id)
);

CREATE TABLE events (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id bigint NOT NULL CHECK (id > 0),
  name text NOT NULL CHECK (name ~ '^[a-z][a-z0-9_]{0,62}$'),
  -- Who receives it (SPEC §6): every signed-in user (all), research users and admins
  -- (research), admins (admin).
  channel text NOT NULL CHECK (channel IN ('all', 'research', 'admin')),
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
-- Pruning by age (the window is also bounded by count, through the primary key).
CREATE INDEX events_created ON events (tenant_id, created_at);

SELECT enable_tenant_isolation('event_counters', 'events');

-- Tells every process that a tenant's sessions or users changed (sign-out, a user disabled,
-- deleted or given other roles), so open streams are checked at once rather than at the
-- next periodic check. One notification per tenant and transaction, at commit.
CREATE FUNCTION notify_event_stream_access() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('intelnotes_events', 'access:' || (CASE WHEN TG_OP = 'DELETE' THEN OLD.tenant_id ELSE NEW.tenant_id END)::text);
  RETURN NULL;
END $$;
CREATE TRIGGER sessions_notify_event_streams AFTER UPDATE ON sessions FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at)
  EXECUTE FUNCTION notify_event_stream_access();
-- A deleted user's sessions go with it (cascade), which this covers too.
CREATE TRIGGER sessions_deleted_notify_event_streams AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION notify_event_stream_access();
CREATE TRIGGER users_notify_event_streams AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.disabled IS DISTINCT FROM NEW.disabled OR OLD.is_admin IS DISTINCT FROM NEW.is_admin
        OR OLD.is_research IS DISTINCT FROM NEW.is_research)
  EXECUTE FUNCTION notify_event_stream_access();
