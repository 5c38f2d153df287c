import type { RouteObject } from 'react-router';

/** Pages everyone may open (the API filters entries by access level and hides the paywall link from public visitors). */
export const libraryPublicRoutes: RouteObject[] = [
  {
    path: 'library',
    lazy: async () => ({ Component: (await import('./LibraryListPage')).LibraryListPage }),
  },
  {
    path: 'library/:id',
    lazy: async () => ({ Component: (await import('./LibraryDetailPage')).LibraryDetailPage }),
  },
];

/** Pages for research and admin users; mounted under the research guard. */
export const libraryResearchRoutes: RouteObject[] = [
  {
    path: 'library/create',
    lazy: async () => ({ Component: (await import('./LibraryCreatePage')).LibraryCreatePage }),
  },
  {
    path: 'library/:id/edit',
    lazy: async () => ({ Component: (await import('./LibraryEditPage')).LibraryEditPage }),
  },
];
