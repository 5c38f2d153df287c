import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { ResourceCreatePage, ResourceEditPage } from '../../components/ResourceFormPage';
import { citiesView, geosView } from './geos.view';

export function GeoDetailPage() {
  return <ResourceDetailPage view={geosView} />;
}

export function GeoCreatePage() {
  return <ResourceCreatePage view={geosView} />;
}

export function GeoEditPage() {
  return <ResourceEditPage view={geosView} />;
}

export function CityDetailPage() {
  return <ResourceDetailPage view={citiesView} />;
}

export function CityCreatePage() {
  return <ResourceCreatePage view={citiesView} />;
}

export function CityEditPage() {
  return <ResourceEditPage view={citiesView} />;
}
