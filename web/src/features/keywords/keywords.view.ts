import type { ResourceView } from '../../components/resource-view';

/** Keywords on the shared table, form and detail page; their list is /keywords (its ?tab=1 shows geos). */
export const keywordsView: ResourceView = {
  kind: 'keyword',
  basePath: '/keywords',
  listPath: '/keywords',
  title: 'Keywords',
  columns: ['display_name', 'description', 'visibility', 'updated_at'],
};
