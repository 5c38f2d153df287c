-- The email list and its domains (SPEC §3 "Email list item (dxlist)" and "Domain", issue 17,
-- docs/emails.md): addresses pasted, imported, typed or subscribed through the public widget,
-- each under its domain; a domain counts its addresses exactly (cleaned_emails_count), kept in
-- the writing transaction by a trigger, and is enriched by a job (free mail, disposable, MX,
-- the site's title, the organizations using it).

CREATE TABLE email_domains (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  -- ASCII, lower case (IDN labels as punycode); the Unicode form beside it when they differ.
  domain text NOT NULL CHECK (domain = lower(domain) AND domain ~ '^[a-z0-9.-]{1,253}$'),
  domain_unicode text,
  cleaned_emails_count integer NOT NULL DEFAULT 0 CHECK (cleaned_emails_count >= 0),
  is_free_mail boolean NOT NULL DEFAULT false,
  is_disposable boolean NOT NULL DEFAULT false,
  mx_found boolean,
  site_title text,
  site_description text,
  enrichment_status text NOT NULL DEFAULT 'pending' CHECK (enrichment_status IN ('pending', 'running', 'completed', 'error')),
  enrichment_error text,
  enriched_at timestamptz,
  organizations uuid[] NOT NULL DEFAULT '{}',
  notes text,
  -- Research material (readAccess research): the column keeps the counters' rule, as for buckets.
  visibility text NOT NULL DEFAULT 'hidden' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (coalesce(domain_unicode, domain)) STORED,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, domain)
);
-- The default order (-cleaned_emails_count; the engine orders it NULLS LAST).
CREATE INDEX email_domains_by_count ON email_domains (tenant_id, cleaned_emails_count DESC NULLS LAST, id DESC);
SELECT setup_entity_table('email_domains', 'domains',
  ARRAY['organizations', 'is_free_mail', 'is_disposable', 'mx_found', 'enrichment_status']);

CREATE TABLE email_list (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE RESTRICT,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  -- Normalized: the local part as typed, the domain lower case and ASCII (punycode).
  email text NOT NULL CHECK (length(email) <= 254 AND position('@' IN email) > 1),
  name text,
  domain uuid,
  source text NOT NULL DEFAULT 'manual' CHECK (source IN ('pasted', 'subscribed', 'imported', 'manual')),
  is_role boolean NOT NULL DEFAULT false,
  is_free_mail boolean NOT NULL DEFAULT false,
  is_disposable boolean NOT NULL DEFAULT false,
  subscription text NOT NULL DEFAULT 'none' CHECK (subscription IN ('none', 'pending', 'confirmed', 'unsubscribed')),
  confirmed_at timestamptz,
  unsubscribed_at timestamptz,
  notes text,
  visibility text NOT NULL DEFAULT 'hidden' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_by uuid,
  display_name text GENERATED ALWAYS AS (email) STORED,
  PRIMARY KEY (tenant_id, id),
  -- One row per address: the domain is stored lower case, so this is case-insensitive on it.
  UNIQUE (tenant_id, email),
  FOREIGN KEY (tenant_id, domain) REFERENCES email_domains (tenant_id, id)
);
-- The default order (-created_at), and the typeahead (search_input_form): prefix and substring.
CREATE INDEX email_list_created ON email_list (tenant_id, created_at DESC, id DESC);
CREATE INDEX email_list_email_prefix ON email_list (tenant_id, lower(email) text_pattern_ops);
CREATE INDEX email_list_typeahead ON email_list USING gin (tenant_id, lower(email || ' ' || coalesce(name, '')) gin_trgm_ops);
SELECT setup_entity_table('email_list', 'emails',
  ARRAY['domain', 'source', 'subscription', 'is_role', 'is_free_mail', 'is_disposable']);

-- cleaned_emails_count: the addresses of each domain, exact. Kept per statement (a paste of
-- 10,000 addresses moves each of its domains once, not once per address) in the writing
-- transaction; the domains are updated in id order, so two writers touching the same domains
-- lock them in the same order and never deadlock. Rows an all-or-nothing import has staged
-- (staged_by set, migration 0115) are not counted until it publishes them (the update that
-- clears staged_by counts them then), as the entity counters do.
CREATE FUNCTION email_domain_count_changes(delta_rows jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  change record;
BEGIN
  FOR change IN
    SELECT (d ->> 'tenant_id')::uuid AS tenant_id, (d ->> 'domain')::uuid AS domain, sum((d ->> 'delta')::int) AS delta
    FROM jsonb_array_elements(delta_rows) d
    GROUP BY 1, 2 HAVING sum((d ->> 'delta')::int) <> 0
    ORDER BY 1, 2
  LOOP
    UPDATE email_domains SET cleaned_emails_count = cleaned_emails_count + change.delta
    WHERE tenant_id = change.tenant_id AND id = change.domain;
  END LOOP;
END $$;

CREATE FUNCTION email_list_count_inserted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM email_domain_count_changes(coalesce(
    (SELECT jsonb_agg(jsonb_build_object('tenant_id', tenant_id, 'domain', domain, 'delta', 1)) FROM new_rows WHERE domain IS NOT NULL AND staged_by IS NULL),
    '[]'));
  RETURN NULL;
END $$;

CREATE FUNCTION email_list_count_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM email_domain_count_changes(coalesce(
    (SELECT jsonb_agg(jsonb_build_object('tenant_id', tenant_id, 'domain', domain, 'delta', -1)) FROM old_rows WHERE domain IS NOT NULL AND staged_by IS NULL),
    '[]'));
  RETURN NULL;
END $$;

CREATE FUNCTION email_list_count_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM email_domain_count_changes(coalesce(
    (SELECT jsonb_agg(change) FROM (
       SELECT jsonb_build_object('tenant_id', tenant_id, 'domain', domain, 'delta', -1) AS change FROM old_rows WHERE domain IS NOT NULL AND staged_by IS NULL
       UNION ALL
       SELECT jsonb_build_object('tenant_id', tenant_id, 'domain', domain, 'delta', 1) FROM new_rows WHERE domain IS NOT NULL AND staged_by IS NULL
     ) changes),
    '[]'));
  RETURN NULL;
END $$;

CREATE TRIGGER email_list_count_inserted AFTER INSERT ON email_list
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION email_list_count_inserted();
CREATE TRIGGER email_list_count_deleted AFTER DELETE ON email_list
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION email_list_count_deleted();
CREATE TRIGGER email_list_count_updated AFTER UPDATE ON email_list
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION email_list_count_updated();

-- The public widget's double opt-in (docs/emails.md): each mail sent carries fresh tokens, of
-- which only the SHA-256 is kept. A confirmation token expires and is used once; an
-- unsubscribe token keeps working (an old mail's link still unsubscribes).
CREATE TABLE email_subscription_tokens (
  tenant_id uuid NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  token_sha256 text NOT NULL CHECK (token_sha256 ~ '^[0-9a-f]{64}$'),
  item_id uuid NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('confirm', 'unsubscribe')),
  expires_at timestamptz,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, token_sha256),
  FOREIGN KEY (tenant_id, item_id) REFERENCES email_list (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX email_subscription_tokens_item ON email_subscription_tokens (tenant_id, item_id);
SELECT enable_tenant_isolation('email_subscription_tokens');

-- The public widget is rate limited per IP and per address with the sign-in's counters
-- (auth/sessions.repository.ts takeLimitSlots): two more scopes.
ALTER TABLE login_limits DROP CONSTRAINT login_limits_scope_check;
ALTER TABLE login_limits ADD CONSTRAINT login_limits_scope_check
  CHECK (scope IN ('ip', 'email', 'subscribe_ip', 'subscribe_email'));
