/**
 * The four kinds of list (SPEC §2, §3): their type (the API's `kind`, the `type` URL
 * parameter of /lists), the path segment of their pages and what they are called.
 */
export const LIST_TYPES = ['LibraryList', 'LedgerList', 'OrganizationsList', 'PeopleList'] as const;
export type ListType = (typeof LIST_TYPES)[number];

export interface ListKindInfo {
  type: ListType;
  /** Path segment: /lists/{segment}/{slug}. */
  segment: string;
  /** "Library list". */
  label: string;
  /** "Library lists". */
  plural: string;
  /** What its items are, in a sentence ("library entries"). */
  items: string;
  /** One item, with its article ("a library entry"). */
  item: string;
}

export const LIST_KINDS: readonly ListKindInfo[] = [
  { type: 'LibraryList', segment: 'library', label: 'Library list', plural: 'Library lists', items: 'library entries', item: 'a library entry' },
  { type: 'LedgerList', segment: 'ledger', label: 'Ledger list', plural: 'Ledger lists', items: 'ledger entries', item: 'a ledger entry' },
  { type: 'OrganizationsList', segment: 'organizations', label: 'Organizations list', plural: 'Organizations lists', items: 'organizations', item: 'an organization' },
  { type: 'PeopleList', segment: 'people', label: 'People list', plural: 'People lists', items: 'people', item: 'a person' },
];

export const isListType = (value: string | null | undefined): value is ListType => LIST_TYPES.includes(value as ListType);

export function kindByType(type: string): ListKindInfo | undefined {
  return LIST_KINDS.find((kind) => kind.type === type);
}

export function kindBySegment(segment: string): ListKindInfo | undefined {
  return LIST_KINDS.find((kind) => kind.segment === segment);
}

/** The page of a list: /lists/organizations/top-picks; /lists/{id} (which finds it) when its kind is not known. */
export function listPagePath(record: { id: string; kind?: unknown; slug?: unknown }): string {
  const segment = kindByType(String(record.kind))?.segment;
  if (!segment) return `/lists/${encodeURIComponent(record.id)}`;
  const slug = typeof record.slug === 'string' && record.slug !== '' ? record.slug : record.id;
  return `/lists/${segment}/${encodeURIComponent(slug)}`;
}

/** The lists page, filtered by a type when given. */
export function listsPagePath(type?: string | null): string {
  return isListType(type) ? `/lists?tab=1&type=${type}` : '/lists?tab=1';
}
