-- Authenticating a request in one statement (one round trip, no explicit
-- transaction) instead of BEGIN / set_config / SELECT / COMMIT: every API
-- request with a bearer token pays for this, so it is most of the fixed cost
-- of the cheap ones (entity counts, a list page).
--
-- The function drops to the app role and sets the tenant for the statement's
-- own transaction only (set_config(…, true)), exactly as Database.withTenant
-- does, so the lookup runs under the same row-level security as any request:
-- a token issued on another tenant is simply not found. When the statement
-- ends, its transaction ends and the caller's role and settings come back.
CREATE FUNCTION app_live_session(p_tenant_id uuid, p_token_hash text)
RETURNS TABLE (
  session_id uuid,
  id uuid,
  tenant_id uuid,
  email text,
  alias text,
  is_admin boolean,
  is_research boolean,
  asset_id uuid,
  disabled boolean
)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM set_config('role', 'intelnotes_app', true),
          set_config('app.tenant_id', p_tenant_id::text, true),
          set_config('app.manage_tenants', 'off', true);
  RETURN QUERY
    SELECT s.id, u.id, u.tenant_id, u.email, u.alias, u.is_admin, u.is_research, u.asset_id, u.disabled
      FROM sessions s
      JOIN users u ON u.tenant_id = s.tenant_id AND u.id = s.user_id
     WHERE s.tenant_id = p_tenant_id -- row-level security says the same; stated for the index
       AND s.token_hash = p_token_hash
       AND s.revoked_at IS NULL
       AND s.expires_at > now()
     LIMIT 1;
END
$$;
