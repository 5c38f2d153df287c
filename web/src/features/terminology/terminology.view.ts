import type { ResourceView } from '../../components/resource-view';

/** Terms on the shared form and detail page; their list is the glossary at /terminology. */
export const terminologyView: ResourceView = {
  kind: 'terminology',
  basePath: '/terminology',
  listPath: '/terminology',
  title: 'Terminology',
  emptyText: 'No terms yet.',
  columns: ['display_name', 'definition', 'keywords', 'visibility', 'updated_at'],
};
