-- Bulk actions (POST {resource}/bulk/): what a bulk visibility, keyword or
-- list change did to each row, so that POST {resource}/bulk/{id}/undo/ can put
-- it back in one transaction. Every record's audit entry of a bulk action (and
-- of its undo) names the operation.

CREATE TABLE bulk_operations (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  resource text NOT NULL,
  action text NOT NULL,
  user_id uuid,
  -- Per row what the undo needs: [{id, visibility} | {id, added} | {id, removed} | …].
  undo jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  undone_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);
SELECT enable_tenant_isolation('bulk_operations');

ALTER TABLE audit_entries ADD COLUMN bulk_operation_id uuid;
CREATE INDEX audit_entries_bulk_operation ON audit_entries (tenant_id, bulk_operation_id) WHERE bulk_operation_id IS NOT NULL;
