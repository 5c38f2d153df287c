import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

/** The countries-and-regions table, for pages of other features that show it (/keywords?tab=1). */
export const loadGeosTable = async (): Promise<ComponentType> => (await import('./GeoTables')).GeosTable;

/** Pages everyone may open: geos and cities are shared by every tenant. */
export const geosPublicRoutes: RouteObject[] = [
  { path: 'geos', lazy: async () => ({ Component: (await import('./GeosPage')).GeosPage }) },
  { path: 'geos/:id', lazy: async () => ({ Component: (await import('./GeoPages')).GeoDetailPage }) },
  { path: 'cities/:id', lazy: async () => ({ Component: (await import('./GeoPages')).CityDetailPage }) },
];

/** Pages for tenant managers (SPEC §2 "public-tenant-admin"); mounted under that guard. */
export const geosTenantAdminRoutes: RouteObject[] = [
  { path: 'geos/create', lazy: async () => ({ Component: (await import('./GeoPages')).GeoCreatePage }) },
  { path: 'geos/:id/edit', lazy: async () => ({ Component: (await import('./GeoPages')).GeoEditPage }) },
  { path: 'cities/create', lazy: async () => ({ Component: (await import('./GeoPages')).CityCreatePage }) },
  { path: 'cities/:id/edit', lazy: async () => ({ Component: (await import('./GeoPages')).CityEditPage }) },
];
