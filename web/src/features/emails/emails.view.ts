import type { ResourceView } from '../../components/resource-view';

const yesNo = (value: unknown) => (value === true ? 'Yes' : value === false ? 'No' : '');
/** A code as a word of its own ("pasted" → "Pasted"), or the word the table gives it. */
const worded = (words: Record<string, string> = {}) => (value: unknown) =>
  typeof value === 'string' ? (words[value] ?? value.charAt(0).toUpperCase() + value.slice(1)) : '';

/** How the tables read the subscription and the enrichment status (their codes are the API's). */
const SUBSCRIPTION_WORDS: Record<string, string> = { none: 'Not subscribed' };
const ENRICHMENT_WORDS: Record<string, string> = { completed: 'Done', error: 'Failed' };

/** The email list (research; the Emails tab is the admins'): addresses pasted, subscribed or imported. */
export const emailsView: ResourceView = {
  kind: 'emails',
  basePath: '/emails',
  listPath: '/emails?tab=1',
  title: 'Emails',
  emptyText: 'No addresses yet: paste some text with addresses in it.',
  columns: ['display_name', 'name', 'domain', 'source', 'subscription', 'is_role', 'is_free_mail', 'created_at'],
  labels: {
    display_name: 'Email',
    // The stored address (the list's Email column shows the same); the form's field.
    email: 'Email address',
    is_role: 'Role address',
    is_free_mail: 'Free mail',
    is_disposable: 'Disposable',
    confirmed_at: 'Confirmed',
    unsubscribed_at: 'Unsubscribed',
  },
  cells: { is_role: yesNo, is_free_mail: yesNo, is_disposable: yesNo, source: worded(), subscription: worded(SUBSCRIPTION_WORDS) },
  // SPEC §9: the email list's preview page size.
  pageSize: 50,
};

/** An address's form: its standing on the distribution list (with its dates) is the page's panel. */
export const emailEditView: ResourceView = { ...emailsView, omit: ['confirmed_at', 'unsubscribed_at'] };

/** Written by the server when the domain is looked into (the domain's page shows them, kept current). */
const ENRICHED = [
  'domain',
  'domain_unicode',
  'cleaned_emails_count',
  'is_free_mail',
  'is_disposable',
  'mx_found',
  'site_title',
  'site_description',
  'enrichment_status',
  'enrichment_error',
  'enriched_at',
];

/** The domains of the list's addresses, most used first; their list is /emails?tab=2. */
export const domainsView: ResourceView = {
  kind: 'domains',
  basePath: '/emails/domains',
  listPath: '/emails?tab=2',
  title: 'Domains',
  emptyText: 'No domains yet: they come with the addresses.',
  columns: ['display_name', 'cleaned_emails_count', 'is_free_mail', 'is_disposable', 'mx_found', 'enrichment_status', 'organizations'],
  labels: {
    display_name: 'Domain',
    domain: 'Domain (ASCII)',
    domain_unicode: 'Domain (as written)',
    cleaned_emails_count: 'Addresses',
    is_free_mail: 'Free mail',
    is_disposable: 'Disposable',
    mx_found: 'Mail server (MX)',
    enrichment_status: 'Looked into',
    enriched_at: 'Looked into at',
    enrichment_error: 'Why not',
  },
  cells: {
    is_free_mail: yesNo,
    is_disposable: yesNo,
    mx_found: (value) => (value === null || value === undefined ? 'Unknown' : yesNo(value)),
    enrichment_status: worded(ENRICHMENT_WORDS),
  },
};

/** The domain's form: what people set (organizations, notes); the page shows the rest live. */
export const domainEditView: ResourceView = { ...domainsView, omit: ENRICHED };

/** Where an address or a domain is opened: the SPEC gives them edit pages only. */
export const emailEditPath = (id: string) => `/emails/${encodeURIComponent(id)}/edit`;
export const domainEditPath = (id: string) => `/emails/domains/${encodeURIComponent(id)}/edit`;
/** The list of a domain's addresses: the list filtered by the domain. */
export const domainAddressesPath = (id: string) => `/emails?tab=1&domain=${encodeURIComponent(id)}`;
