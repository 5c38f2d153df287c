import type { ResourceView } from '../../components/resource-view';

/**
 * Lists on the shared form. Saving leads to /lists/{id}, which finds the list's page by its
 * kind and slug (ListRedirectPage).
 */
export const listsView: ResourceView = {
  kind: 'lists',
  basePath: '/lists',
  title: 'Lists',
  columns: ['display_name', 'kind', 'visibility', 'updated_at'],
  labels: {
    kind: 'Type',
    auto_tagging: 'Auto-tagging (items added receive the keywords)',
  },
};
