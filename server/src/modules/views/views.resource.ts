/**
 * Saved views (issue 28 item 2, docs/web.md "Saved views"): a table's filters, search, ordering,
 * columns, density and grouping under a name. A view belongs to the research user or admin who
 * saved it (the engine's `owner`): private, or shared with the team (`shared`), read by the
 * team and changed only by its owner — row-level security holds it (migration 0230). Each
 * user's default view per table is theirs alone (views.routes.ts, `is_default`).
 */
import { fieldError } from '../../resources/errors.ts';
import { boolean, category, immutable, object, required, text } from '../../resources/fields.ts';
import { defineResource, type SaveContext } from '../../resources/resource.ts';
import { mayReadResource } from '../../resources/visibility.ts';
import { defaultViewIds } from './views.repository.ts';
import { parseViewState } from './view-state.ts';

export const SAVED_VIEWS_KIND = 'saved_views';

/** The view's resource is a list its writer may read, and its state one that list accepts for them. */
async function checkState({ catalog, access, record }: SaveContext): Promise<Record<string, unknown>> {
  const kind = String(record['resource'] ?? '');
  const target = catalog.resources.find((resource) => resource.kind === kind && resource.kind !== SAVED_VIEWS_KIND);
  if (!target || !mayReadResource(target, access)) {
    throw fieldError('resource', `Unknown resource. Save a view of one of: ${catalog.resources.filter((resource) => resource.kind !== SAVED_VIEWS_KIND && mayReadResource(resource, access)).map((resource) => resource.kind).join(', ')}.`);
  }
  return { state: parseViewState(catalog, target, record['state'], access) };
}

export const savedViews = defineResource({
  kind: SAVED_VIEWS_KIND,
  type: 'SavedView',
  path: '/views',
  table: 'saved_views',
  label: 'Saved view',
  readAccess: 'research',
  writeAccess: 'research',
  owner: { shareField: 'shared' },
  counterKinds: [],
  fields: {
    name: text({ max: 100, required: true }),
    resource: immutable(required(category({ max: 100 }))),
    state: object(16_384),
    shared: boolean(false),
  },
  ordering: ['name'],
  defaultOrdering: 'name',
  filters: ['resource', 'shared'],
  identity: { names: ['name'] },
  beforeSave: [checkState],
  annotate: {
    fields: ['is_default'],
    // Row-level security keeps saved_view_defaults to the reader's own rows: the defaults read are theirs.
    values: async ({ tx, rows }) => {
      const defaults = await defaultViewIds(tx, rows.map((row) => row.id));
      return new Map(rows.map((row) => [row.id, { is_default: defaults.has(row.id) }]));
    },
  },
});
