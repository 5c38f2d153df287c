/**
 * Ledger entry (SPEC §3 "Asset (entry) defaults"): a dated data point about
 * organizations, people and places — a year and quarter, the data itself, a
 * symbol and a caption. Served at /api/v1/assets/ledger/ (SPEC §7 lists
 * assets/{organizations|people|ledger}). In quick search as LedgerEntry
 * (the search dialog's "Ledgers" chip, SPEC §2).
 */
import { choice, decimal, flag, inSection, integer, relation, text, url, visibility } from '../../resources/fields.ts';
import { defineResource } from '../../resources/resource.ts';
import { CURRENCIES } from './investments.resource.ts';

export const QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4'] as const;

export const ledgerEntries = defineResource({
  kind: 'ledger_entries',
  type: 'LedgerEntry',
  path: '/assets/ledger',
  table: 'ledger_entries',
  label: 'Ledger entry',
  paywallOffer: true,
  graph: true,
  plural: 'Ledger entries',
  summary: ['year', 'quarter', 'symbol'],
  writeAccess: 'research',
  // Suggestions of every type code but ORG and PER (SPEC §3).
  review: {},
  quickSearch: {},
  search: { fields: { caption: 'A', symbol: 'A', data: 'C', url: 'C' } },
  fields: {
    caption: text({ max: 300 }),
    symbol: text({ max: 100 }),
    year: inSection('dates', integer({ min: 1000, max: 9999 })),
    quarter: inSection('dates', choice(QUARTERS, { default: 'Q1' })),
    data: text({ max: 20_000, multiline: true }),
    // The money the entry is about (migration 0160): compared and ordered in lists; processing
    // fills both from the money found in a document (docs/ledger.md).
    amount: decimal({ min: 0, max: 1e15, scale: 2 }),
    currency: choice(CURRENCIES),
    organizations: relation('organizations'),
    people: relation('people'),
    geos: relation('geos'),
    keywords: relation('keyword'),
    order: integer({ min: -1_000_000, max: 1_000_000 }),
    url: url(),
    show_on_dashboard: flag(),
    visibility: visibility('hidden'),
  },
  ordering: ['year', 'quarter', 'order', 'caption', 'symbol', 'amount'],
  filters: ['year', 'quarter', 'currency', 'organizations', 'people', 'geos', 'keywords'],
  listItem: { listKind: 'LedgerList', column: 'ledger_entry_id' },
  links: {
    // Ledger entries these organizations or people hold stakes in ("deals Jane Doe invested in").
    investors: { label: 'Investors', path: [{ from: 'investments', field: 'ledger_entry' }, { field: ['owner', 'owner_person'] }] },
  },
  identity: {
    names: ['caption', 'symbol', 'data'],
    // Many entries share a symbol or caption (one per year and quarter), so a
    // name never identifies an entry: a spreadsheet row updates one only by its id.
    nameKeys: () => [],
  },
  headerAliases: {
    title: 'caption',
    name: 'caption',
    ticker: 'symbol',
    value: 'data',
    notes: 'data',
    link: 'url',
    organization: 'organizations',
    person: 'people',
    geo: 'geos',
    country: 'geos',
    keyword: 'keywords',
    tags: 'keywords',
  },
});
