import type { ResourceView } from '../../components/resource-view';

/** Countries and regions (shared by every tenant; written by tenant managers). */
export const geosView: ResourceView = {
  kind: 'geos',
  basePath: '/geos',
  listPath: '/geos',
  title: 'Countries and regions',
  columns: ['display_name', 'code', 'geo_type', 'countries'],
  labels: { geo_type: 'Type', countries: 'Countries (of a region)' },
};

/** Cities (shared by every tenant; written by tenant managers); listed on /geos?tab=1. */
export const citiesView: ResourceView = {
  kind: 'cities',
  basePath: '/cities',
  listPath: '/geos?tab=1',
  title: 'Cities',
  columns: ['display_name', 'country', 'admin_area', 'population', 'latitude', 'longitude'],
  labels: { admin_area: 'State, province or region' },
};
