-- E-mail addresses in one canonical form (issue 28, docs/emails.md "One address"): the local
-- part lower case — `jane@Example.com` and `JANE@example.com` were kept as two items of one
-- list — and the domain in Unicode (`info@bücher.de`, as the domains tab shows it, where the
-- address list showed `info@xn--bcher-kva.de`). The server writes that form from now on
-- (email-address.ts); this brings the stored items to it and folds the items that become one:
--
-- - The oldest item of each address stays (it keeps its id, so links to it stay good); the
--   others are deleted after their subscription tokens are moved to it, so a confirmation or
--   unsubscribe link already mailed still works.
-- - The item kept takes the first name found (oldest first), every distinct note, and the
--   strongest subscription state: unsubscribed over confirmed over pending over none — a person
--   who left the list under one spelling is never mailed again under another.
-- - Each deleted item gets a `delete` audit entry and each rewritten address an `update`
--   entry, as any write would (no user: the migration did it).
--
-- Local parts are lower-cased by the database's lower(), which under the embedded server's C
-- locale folds ASCII letters only: a stored local part with capital non-ASCII letters (rare)
-- keeps them, where the server's toLowerCase folds them for new writes. Written to be run
-- again safely: on canonical data it changes nothing.

CREATE TEMP TABLE email_canonical ON COMMIT DROP AS
WITH parts AS (
  SELECT l.tenant_id, l.id, l.email, l.created_at, l.name, l.notes, l.subscription, l.confirmed_at, l.unsubscribed_at,
         lower(left(l.email, length(l.email) - position('@' IN reverse(l.email)))) AS local,
         coalesce(d.domain_unicode, d.domain, lower(right(l.email, position('@' IN reverse(l.email)) - 1))) AS domain
  FROM email_list l
  LEFT JOIN email_domains d ON d.tenant_id = l.tenant_id AND d.id = l.domain
)
SELECT p.*, p.local || '@' || p.domain AS canonical,
       first_value(p.id) OVER same AS keeper,
       row_number() OVER same AS rank
FROM parts p
WINDOW same AS (PARTITION BY p.tenant_id, p.local || '@' || p.domain ORDER BY p.created_at, p.id);

-- What the kept item takes from its group.
CREATE TEMP TABLE email_merged ON COMMIT DROP AS
SELECT c.tenant_id, c.keeper,
       (array_agg(c.name ORDER BY c.created_at, c.id) FILTER (WHERE c.name IS NOT NULL AND c.name <> ''))[1] AS name,
       nullif(string_agg(DISTINCT c.notes, E'\n\n') FILTER (WHERE c.notes IS NOT NULL AND c.notes <> ''), '') AS notes,
       CASE
         WHEN bool_or(c.subscription = 'unsubscribed') THEN 'unsubscribed'
         WHEN bool_or(c.subscription = 'confirmed') THEN 'confirmed'
         WHEN bool_or(c.subscription = 'pending') THEN 'pending'
         ELSE 'none'
       END AS subscription,
       min(c.confirmed_at) AS confirmed_at,
       max(c.unsubscribed_at) AS unsubscribed_at
FROM email_canonical c
GROUP BY c.tenant_id, c.keeper
HAVING count(*) > 1;

UPDATE email_subscription_tokens t SET item_id = c.keeper
FROM email_canonical c
WHERE c.rank > 1 AND t.tenant_id = c.tenant_id AND t.item_id = c.id;

INSERT INTO audit_entries (tenant_id, resource, record_id, action, display_name, changes)
SELECT c.tenant_id, 'emails', c.id, 'delete', c.email,
       jsonb_build_object('email', jsonb_build_object('from', c.email, 'to', null))
FROM email_canonical c WHERE c.rank > 1;

DELETE FROM email_list l USING email_canonical c
WHERE c.rank > 1 AND l.tenant_id = c.tenant_id AND l.id = c.id;

UPDATE email_list l SET
  name = coalesce(m.name, l.name),
  notes = coalesce(m.notes, l.notes),
  subscription = m.subscription,
  confirmed_at = coalesce(m.confirmed_at, l.confirmed_at),
  unsubscribed_at = coalesce(m.unsubscribed_at, l.unsubscribed_at),
  updated_at = now()
FROM email_merged m
WHERE l.tenant_id = m.tenant_id AND l.id = m.keeper;

INSERT INTO audit_entries (tenant_id, resource, record_id, action, display_name, changes)
SELECT c.tenant_id, 'emails', c.id, 'update', c.canonical,
       jsonb_build_object('email', jsonb_build_object('from', c.email, 'to', c.canonical))
FROM email_canonical c WHERE c.rank = 1 AND c.email <> c.canonical;

UPDATE email_list l SET email = c.canonical, updated_at = now()
FROM email_canonical c
WHERE c.rank = 1 AND l.tenant_id = c.tenant_id AND l.id = c.id AND l.email <> c.canonical;
