/**
 * The email list (SPEC §3 "Email list item (dxlist)") and its domains (SPEC §3 "Domain"),
 * docs/emails.md. Research material: research users and admins read and write both.
 *
 * An item's address is normalized when written (email-address.ts) and filed under its domain,
 * which is created with its first address (its enrichment job queued in the same transaction);
 * the domain's cleaned_emails_count is kept by a trigger in the writing transaction (migration
 * 0140). Domains are never created, deleted or imported through their own routes.
 */
import { fieldError } from '../../resources/errors.ts';
import { boolean, choice, datetime, integer, readOnly, relation, required, text } from '../../resources/fields.ts';
import { defineResource, type SaveContext } from '../../resources/resource.ts';
import { isRoleLocalPart, normalizeAddress } from './email-address.ts';
import { ensureDomains, itemWithEmail } from './emails.repository.ts';

export const EMAIL_SOURCES = ['pasted', 'subscribed', 'imported', 'manual'] as const;
export const SUBSCRIPTION_STATES = ['none', 'pending', 'confirmed', 'unsubscribed'] as const;
export const ENRICHMENT_STATUSES = ['pending', 'running', 'completed', 'error'] as const;
export type EmailSource = (typeof EMAIL_SOURCES)[number];
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

export const DUPLICATE_MESSAGE = 'This address is already in the list.';

/**
 * Before an item is written: its address normalized (a 400 naming `email` with the reason
 * when it is none), refused when another item holds it, filed under its domain (created if
 * new) with the domain's and the local part's traits; a subscription set by hand dated.
 */
async function prepareItem({ tx, input, current }: SaveContext): Promise<Record<string, unknown>> {
  const extra: Record<string, unknown> = {};
  if (typeof input['email'] === 'string') {
    const parsed = normalizeAddress(input['email']);
    if (!parsed.ok) throw fieldError('email', parsed.reason);
    const address = parsed.value;
    if (await itemWithEmail(tx, address.email, current?.id ? String(current.id) : null)) throw fieldError('email', DUPLICATE_MESSAGE);
    const domains = await ensureDomains(tx, [address], null);
    const domain = domains.get(address.domain)!;
    Object.assign(extra, {
      email: address.email,
      domain: domain.id,
      is_role: isRoleLocalPart(address.local),
      is_free_mail: domain.isFreeMail,
      is_disposable: domain.isDisposable,
    });
  }
  const subscription = input['subscription'];
  if (typeof subscription === 'string' && subscription !== current?.['subscription']) {
    const now = new Date().toISOString();
    if (subscription === 'confirmed') extra['confirmed_at'] = now;
    if (subscription === 'unsubscribed') extra['unsubscribed_at'] = now;
  }
  return extra;
}

export const emailDomains = defineResource({
  kind: 'domains',
  type: 'EmailDomain',
  path: '/dxlist/domains',
  table: 'email_domains',
  label: 'Domain',
  readAccess: 'research',
  writeAccess: 'research',
  // Created with their first address, never on their own; kept while addresses may come back.
  ownRoutes: ['create', 'upload'],
  deletable: false,
  search: { fields: { domain: 'A', domain_unicode: 'A', site_title: 'C', notes: 'D' } },
  summary: ['cleaned_emails_count', 'enrichment_status'],
  fields: {
    domain: readOnly(text({ max: 253 })),
    domain_unicode: readOnly(text({ max: 253 })),
    cleaned_emails_count: readOnly(integer({ min: 0, default: 0 })),
    is_free_mail: readOnly(boolean(false)),
    is_disposable: readOnly(boolean(false)),
    mx_found: readOnly(boolean(null)),
    site_title: readOnly(text({ max: 500 })),
    site_description: readOnly(text({ max: 2000, multiline: true })),
    enrichment_status: readOnly(choice(ENRICHMENT_STATUSES, { default: 'pending' })),
    enrichment_error: readOnly(text({ max: 500, multiline: true })),
    enriched_at: readOnly(datetime()),
    organizations: relation('organizations', { inverseLabel: 'Email domains' }),
    notes: text({ max: 5000, multiline: true }),
  },
  ordering: ['domain', 'cleaned_emails_count', 'enrichment_status', 'enriched_at'],
  defaultOrdering: '-cleaned_emails_count',
  filters: ['is_free_mail', 'is_disposable', 'mx_found', 'enrichment_status'],
});

export const emailList = defineResource({
  kind: 'emails',
  type: 'EmailListItem',
  path: '/dxlist',
  table: 'email_list',
  label: 'Email address',
  plural: 'Email list',
  readAccess: 'research',
  writeAccess: 'research',
  search: { fields: { email: 'A', name: 'A', notes: 'D' } },
  summary: ['name', 'subscription'],
  fields: {
    email: required(text({ max: 320, required: true })),
    name: text({ max: 200 }),
    domain: readOnly(relation('domains', { many: false, inverseLabel: 'Addresses' })),
    source: choice(EMAIL_SOURCES, { default: 'manual' }),
    is_role: readOnly(boolean(false)),
    is_free_mail: readOnly(boolean(false)),
    is_disposable: readOnly(boolean(false)),
    subscription: choice(SUBSCRIPTION_STATES, { default: 'none' }),
    confirmed_at: readOnly(datetime()),
    unsubscribed_at: readOnly(datetime()),
    notes: text({ max: 5000, multiline: true }),
  },
  // Rows a spreadsheet brings are imported, unless the sheet says where each came from.
  importDefaults: { source: 'imported' },
  ordering: ['email', 'name', 'source', 'subscription'],
  defaultOrdering: '-created_at',
  filters: ['domain', 'source', 'subscription', 'is_role', 'is_free_mail', 'is_disposable'],
  dateRanges: ['created_at'],
  beforeSave: [prepareItem],
});
