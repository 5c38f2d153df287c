import type { RouteObject } from 'react-router';

/** Users of the tenant (SPEC §2 admin routes); mounted under the admin guard. */
export const usersAdminRoutes: RouteObject[] = [
  { path: 'users', lazy: async () => ({ Component: (await import('./UserListPage')).UserListPage }) },
  { path: 'users/create', lazy: async () => ({ Component: (await import('./UserCreatePage')).UserCreatePage }) },
  { path: 'users/:id/edit', lazy: async () => ({ Component: (await import('./UserEditPage')).UserEditPage }) },
];
