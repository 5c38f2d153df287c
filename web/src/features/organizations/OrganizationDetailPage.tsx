import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { organizationsView } from './organizations.view';

export function OrganizationDetailPage() {
  return <ResourceDetailPage view={organizationsView} />;
}
