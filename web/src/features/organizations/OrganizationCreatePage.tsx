import { ResourceCreatePage } from '../../components/ResourceFormPage';
import { organizationsView } from './organizations.view';
import { SuggestFieldsFromUrl } from './SuggestFieldsFromUrl';

export function OrganizationCreatePage() {
  return <ResourceCreatePage view={organizationsView} renderBeforeFields={(form) => <SuggestFieldsFromUrl form={form} />} />;
}
