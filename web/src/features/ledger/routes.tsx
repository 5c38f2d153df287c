import type { RouteObject } from 'react-router';

/** Pages everyone may open (the API filters entries and investments by access level). */
export const ledgerPublicRoutes: RouteObject[] = [
  {
    path: 'ledger',
    lazy: async () => ({ Component: (await import('./LedgerListPage')).LedgerListPage }),
  },
  {
    path: 'ledger/:id',
    lazy: async () => ({ Component: (await import('./LedgerDetailPage')).LedgerDetailPage }),
  },
];

/** Pages for research and admin users; mounted under the research guard. */
export const ledgerResearchRoutes: RouteObject[] = [
  {
    path: 'ledger/create',
    lazy: async () => ({ Component: (await import('./LedgerCreatePage')).LedgerCreatePage }),
  },
  {
    path: 'ledger/:id/edit',
    lazy: async () => ({ Component: (await import('./LedgerEditPage')).LedgerEditPage }),
  },
  {
    path: 'suggested-entities/ledger/:id/edit',
    lazy: async () => ({ Component: (await import('./LedgerSuggestionPage')).LedgerSuggestionPage }),
  },
];
