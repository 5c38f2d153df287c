-- Tells every process when a tenant's entity counts change, so each can keep the counts in
-- memory between changes (modules/tools/counts-cache.ts). One notification per tenant and
-- transaction: PostgreSQL folds identical notifications of one transaction into one, and
-- delivers them at commit (never for a rolled-back write).
CREATE FUNCTION notify_entity_counts_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('intelnotes_entity_counts', (CASE WHEN TG_OP = 'DELETE' THEN OLD.tenant_id ELSE NEW.tenant_id END)::text);
  RETURN NULL;
END $$;

-- Every counter write: the per-row counter triggers, rebuilds, a tenant's deletion (cascade).
CREATE TRIGGER entity_counters_notify AFTER INSERT OR UPDATE OR DELETE ON entity_counters
  FOR EACH ROW EXECUTE FUNCTION notify_entity_counts_changed();

-- Admins' counts include the tenant's users.
CREATE TRIGGER users_notify_entity_counts AFTER INSERT OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_entity_counts_changed();
