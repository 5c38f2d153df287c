import type { RouteObject } from 'react-router';
import { LIST_KINDS } from './list-kinds';

/** Pages everyone may open (the API filters lists and their items by access level). */
export const listsPublicRoutes: RouteObject[] = [
  {
    path: 'lists',
    lazy: async () => ({ Component: (await import('./ListsListPage')).ListsListPage }),
  },
  ...LIST_KINDS.map(({ segment }): RouteObject => ({
    path: `lists/${segment}/:slug`,
    lazy: async () => {
      const { ListDetailPage } = await import('./ListDetailPage');
      return { Component: () => <ListDetailPage segment={segment} /> };
    },
  })),
  {
    path: 'lists/:id',
    lazy: async () => ({ Component: (await import('./ListRedirectPage')).ListRedirectPage }),
  },
];

/** Pages for research and admin users; mounted under the research guard. */
export const listsResearchRoutes: RouteObject[] = [
  {
    path: 'lists/create',
    lazy: async () => ({ Component: (await import('./ListCreatePage')).ListCreatePage }),
  },
  ...LIST_KINDS.map(({ segment }): RouteObject => ({
    path: `lists/${segment}/:slug/edit`,
    lazy: async () => {
      const { ListEditPage } = await import('./ListEditPage');
      return { Component: () => <ListEditPage segment={segment} /> };
    },
  })),
];
