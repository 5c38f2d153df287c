import { ResourceCreatePage } from '../../components/ResourceFormPage';
import { peopleView } from './people.view';

export function PersonCreatePage() {
  return <ResourceCreatePage view={peopleView} />;
}
