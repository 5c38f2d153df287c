import type { RouteObject } from 'react-router';

/** Pages everyone may open (the API filters records by access level). */
export const peoplePublicRoutes: RouteObject[] = [
  {
    path: 'people',
    lazy: async () => ({ Component: (await import('./PersonListPage')).PersonListPage }),
  },
  {
    path: 'people/:id',
    lazy: async () => ({ Component: (await import('./PersonDetailPage')).PersonDetailPage }),
  },
];

/** Pages for research and admin users; mounted under the research guard. */
export const peopleResearchRoutes: RouteObject[] = [
  {
    path: 'people/create',
    lazy: async () => ({ Component: (await import('./PersonCreatePage')).PersonCreatePage }),
  },
  {
    path: 'people/:id/edit',
    lazy: async () => ({ Component: (await import('./PersonEditPage')).PersonEditPage }),
  },
  {
    path: 'suggested-entities/people/:id/edit',
    lazy: async () => ({ Component: (await import('./PersonSuggestionPage')).PersonSuggestionPage }),
  },
];
