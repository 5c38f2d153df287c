/**
 * Library entry (SPEC §3 "Library entry defaults"): articles, books, reports,
 * podcasts… with their authors (people) and the organizations and ledger
 * entries they are about. Served at /api/v1/library/ (SPEC §7 names no path).
 */
import { category, choice, incompleteDate, relation, required, restricted, text, url, visibility, flag } from '../../resources/fields.ts';
import { defineResource } from '../../resources/resource.ts';

/** SPEC §3 "Types", exactly as written (the table's CHECK lists the same). */
export const LIBRARY_TYPES = [
  'Article',
  'Bio/Obituary/Profile/Interview',
  'Book',
  'Database/List/Ranking',
  'Deck/Memo/Presentation',
  'Documentary',
  'Documents/Notes',
  'Essay/Thoughts/Whitepaper/Opinion/Post',
  'Event',
  'Filing',
  'Graphic',
  'Literature/Paper',
  'Podcast',
  'Quote',
  'Report',
] as const;

export const library = defineResource({
  kind: 'library',
  type: 'LibraryEntry',
  path: '/library',
  table: 'library_entries',
  label: 'Library entry',
  paywallOffer: true,
  graph: true,
  plural: 'Library entries',
  summary: ['type', 'publish_date', 'publisher'],
  writeAccess: 'research',
  quickSearch: {},
  // In the order the form shows them: what the entry is, then where to read it, then what it is about.
  search: { fields: { title: 'A', publisher: 'B', type: 'C', abstract: 'C', public_link: 'C', dataset_info: 'D' } },
  fields: {
    title: required(text({ max: 500 })),
    type: choice(LIBRARY_TYPES),
    publish_date: incompleteDate(),
    publisher: category({ max: 300 }),
    publish_frequency: category({ max: 100 }),
    abstract: text({ max: 20_000, multiline: true }),
    // Its match key goes to url_keys: two entries linking to the same page are one document.
    public_link: url({ keyColumn: 'url_keys' }),
    // What paywall readers pay for: never sent to public visitors (nor searched, exported or filtered for them).
    paywall_link: restricted(url(), { read: 'paywall' }),
    authors: relation('people', { inverseLabel: 'Library entries as author' }),
    assets: relation(['organizations', 'ledger_entries'], { inverseLabel: 'Library entries as asset' }),
    keywords: relation('keyword'),
    is_fav: flag(),
    show_on_dashboard: flag(),
    dataset_info: text({ max: 20_000, multiline: true }),
    visibility: visibility('hidden'),
  },
  ordering: ['title', 'publish_date', 'publisher', 'type'],
  filters: ['type', 'publisher', 'is_fav', 'authors', 'assets', 'keywords'],
  listItem: { listKind: 'LibraryList', column: 'library_entry_id' },
  identity: { names: ['title'], urls: 'public_link' },
  headerAliases: {
    name: 'title',
    headline: 'title',
    summary: 'abstract',
    description: 'abstract',
    date: 'publish_date',
    published: 'publish_date',
    'publication date': 'publish_date',
    source: 'publisher',
    url: 'public_link',
    link: 'public_link',
    'public url': 'public_link',
    'paywall url': 'paywall_link',
    frequency: 'publish_frequency',
    author: 'authors',
    organizations: 'assets',
    favorite: 'is_fav',
    favourite: 'is_fav',
    keyword: 'keywords',
    tags: 'keywords',
  },
});
