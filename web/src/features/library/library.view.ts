import type { ResourceView } from '../../components/resource-view';

/** Library entries on the shared list, form and detail page (API: /api/v1/library/). */
export const libraryView: ResourceView = {
  kind: 'library',
  basePath: '/library',
  title: 'Library',
  emptyText: 'No library entries yet.',
  columns: ['display_name', 'type', 'publish_date', 'publisher', 'authors', 'visibility', 'updated_at'],
  labels: {
    // The list's first column is the entry's name, which is its title.
    display_name: 'Title',
    publish_date: 'Publish date',
    public_link: 'Public link',
    paywall_link: 'Paywall link',
    publish_frequency: 'Publish frequency',
    is_fav: 'Favourite',
    assets: 'Organizations and ledger entries',
    dataset_info: 'Dataset info',
  },
};
