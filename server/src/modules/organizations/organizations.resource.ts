/** Organization (SPEC §3), declared once for the resource engine. */
import { relation, category, emails, flag, incompleteDate, inSection, object, phones, text, urls, visibility } from '../../resources/fields.ts';
import { defineResource } from '../../resources/resource.ts';

export const organizations = defineResource({
  kind: 'organizations',
  type: 'Organization',
  path: '/assets/organizations',
  table: 'organizations',
  label: 'Organization',
  summary: ['hq_city', 'ownership_type'],
  review: { typeCode: 'ORG' },
  writeAccess: 'research',
  quickSearch: {},
  mergeable: true,
  search: { fields: { name_inc: 'A', name_dba: 'A', hq_city: 'B', emails: 'B', ownership_type: 'C', associated_urls: 'C', notes: 'D' } },
  fields: {
    name_inc: text({ max: 300 }),
    name_dba: text({ max: 300 }),
    ownership_type: inSection('identity', category({ max: 100 })),
    founding_date: incompleteDate(),
    emails: emails(),
    phones: phones(),
    associated_urls: urls(),
    notes: text({ max: 20_000, multiline: true }),
    hq_city: inSection('contact', category({ max: 200 })),
    show_on_dashboard: flag(),
    visibility: visibility('hidden'),
    keywords: relation('keyword'),
    suggested_fields: object(),
  },
  ordering: ['name_inc', 'name_dba', 'founding_date', 'hq_city'],
  filters: ['hq_city', 'ownership_type', 'keywords'],
  listItem: { listKind: 'OrganizationsList', column: 'organization_id' },
  links: {
    // Organizations on ledger entries with these people ("organizations linked to Jane Doe").
    linked_people: { label: 'Linked people', path: [{ from: 'ledger_entries', field: 'organizations' }, { field: 'people' }] },
    // Organizations of the ledger entries these organizations or people hold stakes in ("organizations Northwind invested in").
    investors: {
      label: 'Investors',
      path: [{ from: 'ledger_entries', field: 'organizations' }, { from: 'investments', field: 'ledger_entry' }, { field: ['owner', 'owner_person'] }],
    },
    // Organizations holding stakes in ledger entries of these organizations ("organizations that invested in Acme").
    invested_in: { label: 'Invested in', path: [{ from: 'investments', field: 'owner' }, { field: 'ledger_entry' }, { field: 'organizations' }] },
  },
  identity: { names: ['name_inc', 'name_dba'], emails: 'emails', urls: 'associated_urls' },
  detailFields: ['hq_city', 'emails'],
  headerAliases: {
    name: 'name_inc',
    'legal name': 'name_inc',
    'company': 'name_inc',
    'organization': 'name_inc',
    'organisation': 'name_inc',
    'trading name': 'name_dba',
    dba: 'name_dba',
    email: 'emails',
    'e-mail': 'emails',
    phone: 'phones',
    telephone: 'phones',
    website: 'associated_urls',
    url: 'associated_urls',
    urls: 'associated_urls',
    city: 'hq_city',
    headquarters: 'hq_city',
    founded: 'founding_date',
    'founding year': 'founding_date',
    ownership: 'ownership_type',
  },
});
