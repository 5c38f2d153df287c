/** Keywords (SPEC §3 entity counts "keyword"): a tenant's tags, unique ignoring case. */
import { sql } from 'drizzle-orm';
import { text, visibility, flag } from '../../resources/fields.ts';
import { defineResource } from '../../resources/resource.ts';
import { unique } from './unique.ts';

export const keywords = defineResource({
  kind: 'keyword',
  type: 'Keyword',
  path: '/keywords',
  table: 'keywords',
  label: 'Keyword',
  summary: ['description'],
  writeAccess: 'research',
  // In quick search only when asked for (the search dialog's Keywords chip).
  quickSearch: { explicitOnly: true },
  search: { fields: { name: 'A', description: 'C' } },
  fields: {
    name: text({ max: 100, required: true }),
    description: text({ max: 5000, multiline: true }),
    show_on_dashboard: flag(),
    visibility: visibility('public'),
  },
  ordering: ['name'],
  defaultOrdering: 'name',
  filters: [],
  identity: { names: ['name'] },
  headerAliases: { keyword: 'name', tag: 'name' },
  beforeSave: [
    unique({
      field: 'name',
      value: (record) => (typeof record['name'] === 'string' ? record['name'] : null),
      // The same expression as the unique index keywords_name_key.
      matches: (name) => sql`lower(name) = lower(${name})`,
      message: 'A keyword with this name already exists (names are compared ignoring case).',
    }),
  ],
});
