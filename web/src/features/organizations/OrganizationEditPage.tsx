import { ResourceEditPage } from '../../components/ResourceFormPage';
import { organizationsView } from './organizations.view';
import { SuggestFieldsFromUrl } from './SuggestFieldsFromUrl';

export function OrganizationEditPage() {
  return <ResourceEditPage view={organizationsView} renderBeforeFields={(form) => <SuggestFieldsFromUrl form={form} />} />;
}
