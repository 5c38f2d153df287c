import type { RouteObject } from 'react-router';

/** /settings (SPEC §2 admin routes); mounted under the admin guard. */
export const settingsAdminRoutes: RouteObject[] = [
  { path: 'settings', lazy: async () => ({ Component: (await import('./SettingsPage')).SettingsPage }) },
];
