import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { peopleView } from './people.view';

export function PersonDetailPage() {
  return <ResourceDetailPage view={peopleView} />;
}
