import type { RouteObject } from 'react-router';

/** Pages everyone may open (the API filters terms by access level). */
export const terminologyPublicRoutes: RouteObject[] = [
  { path: 'terminology', lazy: async () => ({ Component: (await import('./GlossaryPage')).GlossaryPage }) },
  { path: 'terminology/:id', lazy: async () => ({ Component: (await import('./TermPages')).TermDetailPage }) },
];

/** Pages for research and admin users; mounted under the research guard. */
export const terminologyResearchRoutes: RouteObject[] = [
  { path: 'terminology/create', lazy: async () => ({ Component: (await import('./TermPages')).TermCreatePage }) },
  { path: 'terminology/:id/edit', lazy: async () => ({ Component: (await import('./TermPages')).TermEditPage }) },
];
