import { ResourceCreatePage } from '../../components/ResourceFormPage';
import { libraryView } from './library.view';

export function LibraryCreatePage() {
  return <ResourceCreatePage view={libraryView} />;
}
