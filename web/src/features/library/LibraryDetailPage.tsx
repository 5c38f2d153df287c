import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { libraryView } from './library.view';

export function LibraryDetailPage() {
  return <ResourceDetailPage view={libraryView} />;
}
