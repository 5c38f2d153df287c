import { ResourceListPage } from '../../components/ResourceListPage';
import { libraryView } from './library.view';

export function LibraryListPage() {
  return <ResourceListPage view={libraryView} />;
}
