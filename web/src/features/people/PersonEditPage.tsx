import { ResourceEditPage } from '../../components/ResourceFormPage';
import { peopleView } from './people.view';

export function PersonEditPage() {
  return <ResourceEditPage view={peopleView} />;
}
