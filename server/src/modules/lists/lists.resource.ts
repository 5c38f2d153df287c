/**
 * Lists (SPEC §2, §3): named, ordered collections of library entries, ledger
 * entries, organizations or people. A list's slug comes from its name, is
 * unique per tenant and kind, and every earlier slug keeps redirecting.
 */
import { boolean, choice, immutable, readOnly, relation, required, text, visibility, flag } from '../../resources/fields.ts';
import { defineResource, type AnnotateContext, type SaveContext } from '../../resources/resource.ts';
import { allocateSlug, countItemsOfLists, keepOldSlug, lockSlugs } from './lists.repository.ts';

export const LIST_KINDS = ['LibraryList', 'LedgerList', 'OrganizationsList', 'PeopleList'] as const;
export type ListKind = (typeof LIST_KINDS)[number];

const LIST_KIND_LABELS: Record<ListKind, string> = {
  LibraryList: 'Library list',
  LedgerList: 'Ledger list',
  OrganizationsList: 'Organizations list',
  PeopleList: 'People list',
};

/** The path segment of each kind in /lists/{segment}/{slug} (SPEC §2). */
export const LIST_KIND_SEGMENTS: Record<string, ListKind> = {
  library: 'LibraryList',
  ledger: 'LedgerList',
  organizations: 'OrganizationsList',
  people: 'PeopleList',
};

export const segmentOf = (kind: string): string =>
  Object.entries(LIST_KIND_SEGMENTS).find(([, value]) => value === kind)?.[0] ?? kind;

const MAX_SLUG_LENGTH = 100;

/** "Café Owners & Co." → "cafe-owners-co": lower case ASCII words joined by hyphens ("list" when nothing is left). */
export function slugify(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const cut = words.length > MAX_SLUG_LENGTH ? words.slice(0, MAX_SLUG_LENGTH).replace(/-+[^-]*$/, '') || words.slice(0, MAX_SLUG_LENGTH) : words;
  return cut.replace(/-+$/g, '') || 'list';
}

/**
 * beforeSave: a new list gets a slug from its name; a renamed one a new slug
 * (unless its name still gives the one it has), the old one kept for redirects.
 */
async function assignSlug({ tx, tenantId, record, current }: SaveContext): Promise<Record<string, unknown> | void> {
  if (current && record['name'] === current['name']) return;
  const kind = String(record['kind']);
  const listId = current ? String(current['id']) : null;
  // Slugs are allocated one at a time per tenant and kind, so two lists saved at once never collide.
  await lockSlugs(tx, tenantId!, kind);
  const slug = await allocateSlug(tx, kind, slugify(String(record['name'] ?? '')), listId);
  if (current && listId) {
    const currentSlug = String(current['slug']);
    if (slug === currentSlug) return;
    await keepOldSlug(tx, tenantId!, kind, currentSlug, slug, listId);
  }
  return { slug };
}

/** Each list's `item_count`: the items the reader may see, counted per kind of list in one statement. */
async function itemCounts({ tx, catalog, visible, rows }: AnnotateContext): Promise<Map<string, Record<string, unknown>>> {
  const counts = new Map<string, Record<string, unknown>>(rows.map((row) => [row.id, { item_count: 0 }]));
  for (const kind of new Set(rows.map((row) => String(row['kind'])))) {
    const items = catalog.resources.find((resource) => resource.listItem?.listKind === kind);
    if (!items) continue;
    const ids = rows.filter((row) => row['kind'] === kind).map((row) => row.id);
    for (const [listId, n] of await countItemsOfLists(tx, items, ids, visible)) counts.set(listId, { item_count: n });
  }
  return counts;
}

export const lists = defineResource({
  kind: 'lists',
  type: 'List',
  path: '/lists',
  table: 'lists',
  label: 'List',
  summary: ['kind'],
  writeAccess: 'research',
  // The home card counts a tenant's paywalled lists behind a lock (SPEC §2), so a visitor's link to one says it is locked.
  paywallOffer: true,
  search: { fields: { name: 'A', description: 'C' } },
  fields: {
    kind: immutable(required(choice(LIST_KINDS, { labels: LIST_KIND_LABELS }))),
    name: required(text({ max: 200 })),
    slug: readOnly(text({ max: MAX_SLUG_LENGTH + 12 })),
    description: text({ max: 5000, multiline: true }),
    visibility: visibility('public'),
    auto_tagging: boolean(true),
    keywords: relation('keyword'),
    show_on_dashboard: flag(),
  },
  ordering: ['name', 'kind'],
  filters: ['kind'],
  holdsListItems: { table: 'list_items', listColumn: 'list_id' },
  counterKinds: [...LIST_KINDS],
  annotate: { fields: ['item_count'], values: itemCounts },
  quickSearch: { typeColumn: 'kind', slugColumn: 'slug', types: [...LIST_KINDS] },
  // No identity: lists of one kind may share a name (their slugs differ), so an import
  // updates only the lists its rows name by id (as an export gives them).
  headerAliases: { type: 'kind', list: 'name', title: 'name', 'list name': 'name', tags: 'keywords' },
  beforeSave: [assignSlug],
});
