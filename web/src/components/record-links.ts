/**
 * Where a record of any resource is shown in the web app, from its resource kind: the one
 * mapping used by detail pages (relation chips), list memberships and search results.
 */

/** A record to link to: its id, and for lists their slug and list type. */
export interface RecordLinkRef {
  id: string;
  /** Lists: the slug of their page (the id is used when there is none). */
  slug?: string | null;
  /** Lists: the list type (LibraryList, LedgerList, OrganizationsList, PeopleList). */
  type?: string | null;
  /** Lists as records present their memberships (`lists_as_item`) carry the list type here. */
  kind?: string | null;
}

const LIST_TYPES: Record<string, string> = {
  OrganizationsList: 'organizations',
  PeopleList: 'people',
  LedgerList: 'ledger',
  LibraryList: 'library',
};

/** Records with a page of their own, by resource kind. */
const RECORD_PAGES: Record<string, string> = {
  organizations: '/organizations',
  people: '/people',
  ledger_entries: '/ledger',
  library: '/library',
  keyword: '/keywords',
  terminology: '/terminology',
  geos: '/geos',
  cities: '/cities',
  source: '/urls',
  tagging_rules: '/taggingrules',
  emails: '/emails',
  domains: '/emails/domains',
};

/** The page of a list, from its list type: /lists/organizations/{slug}; null for an unknown type. */
export function listHref(type: string, ref: RecordLinkRef): string | null {
  const segment = LIST_TYPES[type];
  return segment ? `/lists/${segment}/${encodeURIComponent(ref.slug || ref.id)}` : null;
}

/**
 * The web route of a record, from its resource kind ("organizations", "ledger_entries", …) or,
 * for lists, the list type ("OrganizationsList"); null when the record has no page to link to
 * (investments, or a list whose type is unknown).
 */
export function recordHref(kind: string, ref: RecordLinkRef): string | null {
  if (kind in LIST_TYPES) return listHref(kind, ref);
  if (kind === 'lists') {
    const type = ref.type ?? (ref.kind && ref.kind in LIST_TYPES ? ref.kind : null);
    return type ? listHref(type, ref) : null;
  }
  const base = RECORD_PAGES[kind];
  return base ? `${base}/${encodeURIComponent(ref.id)}` : null;
}
