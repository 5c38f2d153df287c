/**
 * Terminology (SPEC §3 entity counts "terminology"): a glossary of terms with
 * their definitions and keywords, shown on the public /terminology page.
 */
import { relation, text, visibility, flag } from '../../resources/fields.ts';
import { defineResource } from '../../resources/resource.ts';

export const terminology = defineResource({
  kind: 'terminology',
  type: 'Term',
  path: '/terminology',
  table: 'terminology',
  label: 'Term',
  plural: 'Glossary terms',
  summary: ['definition'],
  writeAccess: 'research',
  search: { fields: { term: 'A', definition: 'C' } },
  fields: {
    term: text({ max: 300, required: true }),
    definition: text({ max: 20_000, multiline: true }),
    keywords: relation('keyword'),
    show_on_dashboard: flag(),
    visibility: visibility('public'),
  },
  ordering: ['term'],
  defaultOrdering: 'term',
  filters: ['keywords'],
  identity: { names: ['term'] },
  headerAliases: { name: 'term', word: 'term', meaning: 'definition', description: 'definition' },
});
