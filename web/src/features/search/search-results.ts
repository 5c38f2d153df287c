import type { SearchResult } from './search.api';

/** How each result type of GET search/ is named and where it opens (SPEC §2 "Search dialog"). */
const RESULT_TYPES: Record<string, { label: string; path: (result: SearchResult) => string }> = {
  Organization: { label: 'Organization', path: (r) => `/organizations/${r.id}` },
  Person: { label: 'Person', path: (r) => `/people/${r.id}` },
  LibraryEntry: { label: 'Library', path: (r) => `/library/${r.id}` },
  LedgerEntry: { label: 'Ledger entry', path: (r) => `/ledger/${r.id}` },
  LibraryList: { label: 'Library list', path: (r) => `/lists/library/${r.slug ?? r.id}` },
  OrganizationsList: {
    label: 'Organizations list',
    path: (r) => `/lists/organizations/${r.slug ?? r.id}`,
  },
  PeopleList: { label: 'People list', path: (r) => `/lists/people/${r.slug ?? r.id}` },
  LedgerList: { label: 'Ledger list', path: (r) => `/lists/ledger/${r.slug ?? r.id}` },
  Keyword: { label: 'Keyword', path: (r) => `/keywords/${r.id}` },
};

export function resultLabel(type: string): string {
  return RESULT_TYPES[type]?.label ?? type;
}

/** The page a result opens; a type the app cannot open yet falls back to the advanced search. */
export function resultPath(result: SearchResult, query: string): string {
  const known = RESULT_TYPES[result.type];
  return known ? known.path(result) : advancedSearchPath(query);
}

export function resultName(result: SearchResult): string {
  return result.display_name?.trim() || 'Untitled';
}

export function advancedSearchPath(query: string): string {
  const q = query.trim();
  return q === '' ? '/search' : `/search?${new URLSearchParams({ q }).toString()}`;
}

export const OPERATOR_PATH = '/search?tab=1';

/**
 * The dialog's filter chips (SPEC §2) and the result types each keeps. Keywords are not among
 * SPEC §2's result types: the search asks for them only while the Keywords chip is on.
 */
export const FILTER_CHIPS = [
  { label: 'Keywords', types: ['Keyword'] },
  { label: 'People', types: ['Person'] },
  { label: 'Organizations', types: ['Organization'] },
  { label: 'Ledgers', types: ['LedgerEntry', 'LedgerList'] },
  { label: 'Library', types: ['LibraryEntry'] },
  { label: 'List', types: ['LibraryList', 'OrganizationsList', 'PeopleList', 'LedgerList'] },
] as const satisfies readonly { label: string; types: readonly string[] }[];

export type FilterChip = (typeof FILTER_CHIPS)[number]['label'];

/** Keeps the results of the selected chips' types; no chip selected keeps everything. */
export function filterResults(results: readonly SearchResult[], selected: ReadonlySet<FilterChip>): SearchResult[] {
  if (selected.size === 0) return [...results];
  const types = new Set<string>(
    FILTER_CHIPS.filter((chip) => selected.has(chip.label)).flatMap((chip) => [...chip.types]),
  );
  return results.filter((result) => types.has(result.type));
}

/** The `type` of the search request: the selected chips' types when they include keywords (which
 * the API returns only when asked), else none (every default result type, filtered here). */
export function searchTypes(selected: ReadonlySet<FilterChip>): string | undefined {
  if (!selected.has('Keywords')) return undefined;
  return FILTER_CHIPS.filter((chip) => selected.has(chip.label)).flatMap((chip) => [...chip.types]).join(',');
}
