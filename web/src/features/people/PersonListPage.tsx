import { ResourceListPage } from '../../components/ResourceListPage';
import { peopleView } from './people.view';

export function PersonListPage() {
  return <ResourceListPage view={peopleView} otherTabs={{ '2': 'Suggested people' }} />;
}
