import type { ResourceView } from '../../components/resource-view';

/** Ledger entries on the shared list, form and detail page (API: /api/v1/assets/ledger/). */
export const ledgerView: ResourceView = {
  kind: 'ledger_entries',
  basePath: '/ledger',
  title: 'Ledger',
  emptyText: 'No ledger entries yet.',
  columns: ['display_name', 'year', 'quarter', 'organizations', 'visibility', 'updated_at'],
  labels: {
    display_name: 'Caption / symbol',
    url: 'URL',
    geos: 'Countries and regions',
  },
  // Its investments have a table of their own below (InvestmentsSection).
  relatedOmit: ['investments.ledger_entry'],
};
