import { ResourceListPage } from '../../components/ResourceListPage';
import { organizationsView } from './organizations.view';

export function OrganizationListPage() {
  return <ResourceListPage view={organizationsView} reviewed />;
}
