import type { ResourceRecord } from '../../api/resources';
import type { ResourceView } from '../../components/resource-view';

/**
 * The result types of the advanced search (SPEC §2's filter chips: Keywords, People,
 * Organizations, Ledgers, Library, List), each one resource of the engine: its list endpoint
 * with `search=` gives the hits, its count and its filters.
 */
export interface SearchType {
  /** The `type` URL parameter. */
  key: string;
  /** The chip. */
  label: string;
  /** The resource kind (GET resources/). */
  kind: string;
  /** Where a hit opens. */
  path: (record: ResourceRecord) => string;
  /** Fields shown under a hit's name, when filled in. */
  summary: string[];
}

/** /lists/{segment}/{slug} per list kind (SPEC §2). */
const LIST_SEGMENTS: Record<string, string> = {
  LibraryList: 'library',
  OrganizationsList: 'organizations',
  PeopleList: 'people',
  LedgerList: 'ledger',
};

const id = (record: ResourceRecord) => encodeURIComponent(record.id);

export const SEARCH_TYPES: readonly SearchType[] = [
  {
    key: 'keywords',
    label: 'Keywords',
    kind: 'keyword',
    path: (record) => `/keywords/${id(record)}`,
    summary: [],
  },
  {
    key: 'people',
    label: 'People',
    kind: 'people',
    path: (record) => `/people/${id(record)}`,
    summary: ['current_address_city', 'passport_country'],
  },
  {
    key: 'organizations',
    label: 'Organizations',
    kind: 'organizations',
    path: (record) => `/organizations/${id(record)}`,
    summary: ['hq_city', 'ownership_type', 'founding_date'],
  },
  {
    key: 'ledgers',
    label: 'Ledgers',
    kind: 'ledger_entries',
    path: (record) => `/ledger/${id(record)}`,
    summary: ['year', 'quarter', 'symbol'],
  },
  {
    key: 'library',
    label: 'Library',
    kind: 'library',
    path: (record) => `/library/${id(record)}`,
    summary: ['type', 'publish_date', 'publisher'],
  },
  {
    key: 'lists',
    label: 'List',
    kind: 'lists',
    path: (record) => {
      const segment = LIST_SEGMENTS[String(record['kind'])];
      const slug = typeof record['slug'] === 'string' && record['slug'] !== '' ? encodeURIComponent(record['slug']) : id(record);
      return segment ? `/lists/${segment}/${slug}` : `/lists`;
    },
    summary: ['kind'],
  },
];

export function searchTypeOf(key: string | null): SearchType | undefined {
  return SEARCH_TYPES.find((type) => type.key === key);
}

/**
 * What the shared filters, the orderings and a hit's matched field need of a view: the kind and
 * the labels of the fields, which are those of the resource's own view (its feature's, handed
 * down by app/ through lib/resource-views.tsx); no table is shown.
 */
export function searchView(type: SearchType, resourceView: ResourceView | undefined): ResourceView {
  return { kind: type.kind, basePath: '', title: type.label, columns: [], labels: resourceView?.labels };
}
