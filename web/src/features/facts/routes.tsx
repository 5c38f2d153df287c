import type { RouteObject } from 'react-router';

const adminPages = () => import('./FactsAdminPages');

/** Everyone reads the intelbooks (SPEC §2 public routes: facts/view, s/:code); the API applies each audience's visibility. */
export const factsPublicRoutes: RouteObject[] = [
  { path: 'facts/view', lazy: async () => ({ Component: (await import('./FactsReaderPage')).FactsReaderPage }) },
  { path: 's/:code', lazy: async () => ({ Component: (await import('./SharedFactsPage')).SharedFactsPage }) },
];

/** The editor, its forms, sections and categories (SPEC §2 admin routes); mounted under the admin guard. */
export const factsAdminRoutes: RouteObject[] = [
  { path: 'facts', lazy: async () => ({ Component: (await import('./FactsEditorPage')).FactsEditorPage }) },
  { path: 'facts/create', lazy: async () => ({ Component: (await adminPages()).FactCreatePage }) },
  { path: 'facts/:id/edit', lazy: async () => ({ Component: (await adminPages()).FactEditPage }) },
  { path: 'sections', lazy: async () => ({ Component: (await adminPages()).SectionListPage }) },
  { path: 'sections/create', lazy: async () => ({ Component: (await adminPages()).SectionCreatePage }) },
  { path: 'sections/:id/edit', lazy: async () => ({ Component: (await adminPages()).SectionEditPage }) },
  { path: 'categories', lazy: async () => ({ Component: (await adminPages()).CategoryListPage }) },
  { path: 'categories/create', lazy: async () => ({ Component: (await adminPages()).CategoryCreatePage }) },
  { path: 'categories/:id/edit', lazy: async () => ({ Component: (await adminPages()).CategoryEditPage }) },
];
