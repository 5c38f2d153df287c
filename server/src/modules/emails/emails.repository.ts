/**
 * The SQL of the email list beyond the engine's own: domains found or created with their
 * addresses, many addresses inserted in one statement, the typeahead, the lookups of an address
 * among organizations and people, subscription tokens. Every statement runs in a tenant's
 * transaction (row-level security adds the tenant).
 */
import { sql } from 'drizzle-orm';
import { query, tenantPin, type Tx } from '../../db/client.ts';
import { conflict } from '../../resources/errors.ts';
import { enqueueMany } from '../../jobs/queue.ts';
import { likeLiteral, textArray, visibleCondition, type Row } from '../../resources/repository.ts';
import type { Visibility } from '../../resources/fields.ts';
import type { Resource } from '../../resources/resource.ts';
import { domainTraits, type NormalizedAddress } from './email-address.ts';

export interface DomainRef {
  id: string;
  isFreeMail: boolean;
  isDisposable: boolean;
}

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/**
 * The domains of these addresses, created when new (in domain order, so two transactions
 * creating overlapping domains wait for each other in the same order), each new one with its
 * enrichment job queued in the same transaction. By ASCII domain.
 */
export async function ensureDomains(tx: Tx, addresses: Array<Pick<NormalizedAddress, 'domain' | 'domainUnicode'>>, createdBy: string | null): Promise<Map<string, DomainRef>> {
  const unique = new Map(addresses.map((address) => [address.domain, address.domainUnicode]));
  if (unique.size === 0) return new Map();
  const wanted = [...unique.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([domain, domainUnicode]) => {
      const traits = domainTraits(domain);
      return { domain, domain_unicode: domainUnicode, is_free_mail: traits.isFreeMail, is_disposable: traits.isDisposable };
    });
  const created = await query<{ id: string; domain: string }>(
    tx,
    sql`INSERT INTO email_domains (tenant_id, domain, domain_unicode, is_free_mail, is_disposable, created_by, updated_by)
        SELECT app_tenant_id(), w.domain, w.domain_unicode, w.is_free_mail, w.is_disposable, ${createdBy}::uuid, ${createdBy}::uuid
        FROM jsonb_to_recordset(${json(wanted)}) AS w(domain text, domain_unicode text, is_free_mail boolean, is_disposable boolean)
        ORDER BY w.domain
        ON CONFLICT (tenant_id, domain) DO NOTHING
        RETURNING id, domain`,
  );
  if (created.length > 0) {
    await enqueueMany(tx, created.map((row) => ({ name: 'dxlist.enrich_domain' as const, payload: { domain_id: row.id }, createdBy })));
  }
  const rows = await query<{ id: string; domain: string; is_free_mail: boolean; is_disposable: boolean }>(
    tx,
    sql`SELECT id, domain, is_free_mail, is_disposable FROM email_domains WHERE domain = ANY(${textArray(wanted.map((row) => row.domain))})`,
  );
  // A domain an all-or-nothing import is creating stays hidden until it publishes (migration 0115).
  const visible = new Set(rows.map((row) => row.domain));
  const hidden = wanted.find((row) => !visible.has(row.domain));
  if (hidden) throw conflict(`The domain ${hidden.domain} is being imported right now; try again once the import is done.`);
  return new Map(rows.map((row) => [row.domain, { id: row.id, isFreeMail: row.is_free_mail, isDisposable: row.is_disposable }]));
}

export interface NewItem {
  email: string;
  name: string | null;
  domain: string;
  source: string;
  is_role: boolean;
  is_free_mail: boolean;
  is_disposable: boolean;
}

/**
 * Inserts the addresses not in the list yet, in address order (concurrent pastes of the same
 * addresses wait for each other in one order), and returns the rows created. An address
 * another transaction holds is skipped here, whether it committed before or while this one
 * waited: `existingItems` then finds it.
 */
export async function insertItems(tx: Tx, resource: Resource, items: NewItem[], createdBy: string | null): Promise<Row[]> {
  if (items.length === 0) return [];
  const sorted = [...items].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  return query<Row>(
    tx,
    sql`INSERT INTO email_list (tenant_id, email, name, domain, source, is_role, is_free_mail, is_disposable, created_by, updated_by)
        SELECT app_tenant_id(), i.email, i.name, i.domain, i.source, i.is_role, i.is_free_mail, i.is_disposable, ${createdBy}::uuid, ${createdBy}::uuid
        FROM jsonb_to_recordset(${json(sorted)}) AS i(email text, name text, domain uuid, source text, is_role boolean, is_free_mail boolean, is_disposable boolean)
        ORDER BY i.email
        ON CONFLICT (tenant_id, email) DO NOTHING
        RETURNING ${sql.raw(returningColumns(resource))}`,
  );
}

function returningColumns(resource: Resource): string {
  const columns = ['id', ...resource.columns, 'display_name', 'created_at', 'updated_at', 'created_by', 'updated_by'];
  return [...new Set(columns)].map((name) => `"${name}"`).join(', ');
}

/** The list's items holding these addresses, by address. */
export async function existingItems(tx: Tx, emails: string[]): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const rows = await query<{ id: string; email: string }>(tx, sql`SELECT id, email FROM email_list WHERE email = ANY(${textArray(emails)})`);
  return new Map(rows.map((row) => [row.email, row.id]));
}

/** The id of another item than `except` holding the address, or null. */
export async function itemWithEmail(tx: Tx, email: string, except: string | null): Promise<string | null> {
  const [row] = await query<{ id: string }>(
    tx,
    sql`SELECT id FROM email_list WHERE email = ${email} ${except ? sql`AND id <> ${except}` : sql``} LIMIT 1`,
  );
  return row?.id ?? null;
}

export interface TypeaheadRow {
  id: string;
  email: string;
  name: string | null;
  domain_id: string | null;
  domain: string | null;
}

/**
 * Up to `limit` items for a typeahead: addresses starting with the text first (the prefix
 * index), then addresses or names containing it (the trigram index), each in address order.
 */
export async function typeahead(tx: Tx, text: string, limit: number): Promise<TypeaheadRow[]> {
  const needle = text.toLowerCase();
  const prefix = `${likeLiteral(needle)}%`;
  const inside = `%${likeLiteral(needle)}%`;
  return query<TypeaheadRow>(
    tx,
    sql`SELECT l.id, l.email, l.name, d.id AS domain_id, coalesce(d.domain_unicode, d.domain) AS domain
        FROM (
          (SELECT id, email, name, domain, 0 AS tier FROM email_list WHERE lower(email) LIKE ${prefix} ORDER BY lower(email), id LIMIT ${limit})
          UNION ALL
          (SELECT id, email, name, domain, 1 AS tier FROM email_list
           WHERE lower(email || ' ' || coalesce(name, '')) LIKE ${inside} AND NOT lower(email) LIKE ${prefix}
           ORDER BY lower(email), id LIMIT ${limit})
        ) l
        LEFT JOIN email_domains d ON d.id = l.domain
        ORDER BY l.tier, lower(l.email), l.id
        LIMIT ${limit}`,
  );
}

export interface Holder {
  id: string;
  display_name: string | null;
}

/** Active records of a table (organizations, people) whose emails hold one of the forms, as the reader may see them. */
export async function holdersOf(tx: Tx, resource: Resource, visible: Visibility[], forms: string[], limit = 100): Promise<Holder[]> {
  return query<Holder>(
    tx,
    sql`SELECT id, display_name FROM ${sql.identifier(resource.table)}
        WHERE emails && ${textArray(forms)}::text[] AND ${visibleCondition(resource, visible)}
        ORDER BY display_name NULLS LAST, id LIMIT ${limit}`,
  );
}

/** The organizations (active) whose e-mail addresses or web addresses are at the domain. */
export async function organizationsUsingDomain(tx: Tx, domain: string, domainUnicode: string | null): Promise<string[]> {
  const domains = [domain, ...(domainUnicode ? [domainUnicode] : [])];
  const rows = await query<{ id: string }>(
    tx,
    sql`SELECT id FROM organizations o
        WHERE status = 'active' AND (
          EXISTS (SELECT 1 FROM unnest(o.emails) e WHERE lower(split_part(e, '@', 2)) = ANY(${textArray(domains)}))
          OR EXISTS (
            SELECT 1 FROM unnest(o.associated_urls) u,
                 LATERAL (SELECT regexp_replace(lower(substring(u FROM '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^/?#@]*@)?([^/?#:]+)')), '^www\\.', '') AS host) h
            WHERE h.host = ${domain} OR right(h.host, ${domain.length + 1}) = ${`.${domain}`}
          )
        )
        ORDER BY id`,
  );
  return rows.map((row) => row.id);
}

export type TokenPurpose = 'confirm' | 'unsubscribe';

export async function insertToken(tx: Tx, token: { sha256: string; itemId: string; purpose: TokenPurpose; expiresAt: Date | null }): Promise<void> {
  await tx.execute(
    sql`INSERT INTO email_subscription_tokens (tenant_id, token_sha256, item_id, purpose, expires_at)
        VALUES (app_tenant_id(), ${token.sha256}, ${token.itemId}, ${token.purpose}, ${token.expiresAt ? token.expiresAt.toISOString() : null}::timestamptz)`,
  );
}

export interface TokenRow {
  item_id: string;
  purpose: TokenPurpose;
  expired: boolean;
  used: boolean;
}

/** The token with this hash and purpose, locked (two clicks of one link are one after the other). */
export async function findToken(tx: Tx, sha256: string, purpose: TokenPurpose): Promise<TokenRow | null> {
  const [row] = await query<TokenRow>(
    tx,
    sql`SELECT item_id, purpose, coalesce(expires_at <= now(), false) AS expired, used_at IS NOT NULL AS used
        FROM email_subscription_tokens WHERE ${tenantPin(tx)} AND token_sha256 = ${sha256} AND purpose = ${purpose} FOR UPDATE`,
  );
  return row ?? null;
}

export async function markTokenUsed(tx: Tx, sha256: string): Promise<void> {
  await tx.execute(sql`UPDATE email_subscription_tokens SET used_at = now() WHERE token_sha256 = ${sha256} AND used_at IS NULL`);
}

/** Confirmation tokens of an item not used yet: replaced by a new mail's. */
export async function dropOpenConfirmTokens(tx: Tx, itemId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM email_subscription_tokens WHERE item_id = ${itemId} AND purpose = 'confirm' AND used_at IS NULL`);
}

/** An item by address, locked for the subscription's change. */
export async function lockItemByEmail(tx: Tx, email: string): Promise<Row | null> {
  const [row] = await query<Row>(tx, sql`SELECT * FROM email_list WHERE ${tenantPin(tx)} AND email = ${email} FOR UPDATE`);
  return row ?? null;
}

export async function lockItem(tx: Tx, itemId: string): Promise<Row | null> {
  const [row] = await query<Row>(tx, sql`SELECT * FROM email_list WHERE ${tenantPin(tx)} AND id = ${itemId} FOR UPDATE`);
  return row ?? null;
}

/** A domain's items (id and address). */
export async function domainItems(tx: Tx, domainId: string): Promise<Array<{ id: string; email: string }>> {
  return query(tx, sql`SELECT id, email FROM email_list WHERE domain = ${domainId} ORDER BY id`);
}

/**
 * A domain's traits copied to its items, and the role flag set exactly on `roleIds`: only rows
 * whose flags change are written.
 */
export async function updateItemTraits(tx: Tx, domainId: string, traits: { isFreeMail: boolean; isDisposable: boolean }, roleIds: string[]): Promise<void> {
  await tx.execute(
    sql`UPDATE email_list SET is_free_mail = ${traits.isFreeMail}, is_disposable = ${traits.isDisposable},
               is_role = (id = ANY(${textArray(roleIds)}::uuid[])), updated_at = now()
        WHERE domain = ${domainId}
          AND (is_free_mail <> ${traits.isFreeMail} OR is_disposable <> ${traits.isDisposable} OR is_role <> (id = ANY(${textArray(roleIds)}::uuid[])))`,
  );
}
