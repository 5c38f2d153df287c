import type { ResourceView } from '../../components/resource-view';

/** Source URLs (research): web addresses raw data is collected from, each with an alias. */
export const urlsView: ResourceView = {
  kind: 'source',
  basePath: '/urls',
  listPath: '/urls',
  title: 'URLs',
  columns: ['display_name', 'url', 'updated_at'],
  labels: { display_name: 'Alias or URL', url: 'URL' },
};
