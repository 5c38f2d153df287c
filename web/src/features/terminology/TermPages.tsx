import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { ResourceCreatePage, ResourceEditPage } from '../../components/ResourceFormPage';
import { terminologyView } from './terminology.view';

export function TermDetailPage() {
  return <ResourceDetailPage view={terminologyView} />;
}

export function TermCreatePage() {
  return <ResourceCreatePage view={terminologyView} />;
}

export function TermEditPage() {
  return <ResourceEditPage view={terminologyView} />;
}
