import type { RouteObject } from 'react-router';

/** Tenants (SPEC §2 public-tenant-admin routes); mounted under the tenant-admin guard. */
export const clientsTenantAdminRoutes: RouteObject[] = [
  { path: 'clients', lazy: async () => ({ Component: (await import('./ClientListPage')).ClientListPage }) },
  { path: 'clients/create', lazy: async () => ({ Component: (await import('./ClientCreatePage')).ClientCreatePage }) },
  { path: 'clients/:id/edit', lazy: async () => ({ Component: (await import('./ClientEditPage')).ClientEditPage }) },
];
