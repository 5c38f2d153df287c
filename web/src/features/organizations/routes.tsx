import type { RouteObject } from 'react-router';

/** Pages everyone may open (the API filters records by access level). */
export const organizationsPublicRoutes: RouteObject[] = [
  {
    path: 'organizations',
    lazy: async () => ({ Component: (await import('./OrganizationListPage')).OrganizationListPage }),
  },
  {
    path: 'organizations/:id',
    lazy: async () => ({ Component: (await import('./OrganizationDetailPage')).OrganizationDetailPage }),
  },
];

/** Pages for research and admin users; mounted under the research guard. */
export const organizationsResearchRoutes: RouteObject[] = [
  {
    path: 'organizations/create',
    lazy: async () => ({ Component: (await import('./OrganizationCreatePage')).OrganizationCreatePage }),
  },
  {
    path: 'organizations/:id/edit',
    lazy: async () => ({ Component: (await import('./OrganizationEditPage')).OrganizationEditPage }),
  },
  {
    path: 'suggested-entities/organizations/:id/edit',
    lazy: async () => ({ Component: (await import('./OrganizationSuggestionPage')).OrganizationSuggestionPage }),
  },
];
