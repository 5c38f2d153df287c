import type { RouteObject } from 'react-router';

/** Source URLs are research material: every page is mounted under the research guard. */
export const urlsResearchRoutes: RouteObject[] = [
  { path: 'urls', lazy: async () => ({ Component: (await import('./UrlPages')).UrlListPage }) },
  { path: 'urls/create', lazy: async () => ({ Component: (await import('./UrlPages')).UrlCreatePage }) },
  { path: 'urls/:id', lazy: async () => ({ Component: (await import('./UrlPages')).UrlDetailPage }) },
  { path: 'urls/:id/edit', lazy: async () => ({ Component: (await import('./UrlPages')).UrlEditPage }) },
];
