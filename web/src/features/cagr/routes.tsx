import type { RouteObject } from 'react-router';

/** /cagr, open to everyone (SPEC §2 public routes). */
export const cagrPublicRoutes: RouteObject[] = [
  { path: 'cagr', lazy: async () => ({ Component: (await import('./CagrPage')).CagrPage }) },
];
