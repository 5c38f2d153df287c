import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { ResourceCreatePage, ResourceEditPage } from '../../components/ResourceFormPage';
import { ResourceListPage } from '../../components/ResourceListPage';
import { urlsView } from './urls.view';

/** /urls: the launcher links it as ?tab=0, the navigation's convention as ?tab=1. */
export function UrlListPage() {
  return <ResourceListPage view={urlsView} listTabs={['0', '1']} />;
}

export function UrlDetailPage() {
  return <ResourceDetailPage view={urlsView} />;
}

export function UrlCreatePage() {
  return <ResourceCreatePage view={urlsView} />;
}

export function UrlEditPage() {
  return <ResourceEditPage view={urlsView} />;
}
