import { ResourceListPage } from '../../components/ResourceListPage';
import { peopleView } from './people.view';

export function PersonListPage() {
  return <ResourceListPage view={peopleView} reviewed />;
}
