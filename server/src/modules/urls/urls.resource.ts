/**
 * Source URLs (/urls; "source" in SPEC §3 entity counts): web addresses raw
 * data is collected from, each with an alias. Research material: only
 * research users and admins read them. A URL is stored normalized and is
 * unique per tenant by its match key (host and path, ignoring the scheme,
 * "www.", a trailing slash and case), kept in url_keys.
 */
import { sql } from 'drizzle-orm';
import { required, text, url } from '../../resources/fields.ts';
import { defineResource } from '../../resources/resource.ts';
import { unique } from '../keywords/unique.ts';

export const sourceUrls = defineResource({
  kind: 'source',
  type: 'SourceUrl',
  path: '/urls',
  table: 'source_urls',
  label: 'Source URL',
  readAccess: 'research',
  writeAccess: 'research',
  search: { fields: { alias: 'A', url: 'A' } },
  fields: {
    url: required(url({ keyColumn: 'url_keys' })),
    alias: text({ max: 200 }),
  },
  ordering: ['url', 'alias'],
  filters: [],
  // Imports match an existing source by its URL's key, never by alias.
  identity: { names: ['url'], nameKeys: () => [], urls: 'url' },
  headerAliases: { link: 'url', address: 'url', source: 'url', name: 'alias', title: 'alias' },
  beforeSave: [
    unique({
      field: 'url',
      value: (record) => (record['url_keys'] as string[] | undefined)?.[0] ?? null,
      // The same expression as the unique index source_urls_url_key.
      matches: (key) => sql`url_keys[1] = ${key}`,
      message: 'This URL is already a source (addresses are compared without scheme, "www." and trailing slash).',
    }),
  ],
});
