import { ResourceEditPage } from '../../components/ResourceFormPage';
import { libraryView } from './library.view';

export function LibraryEditPage() {
  return <ResourceEditPage view={libraryView} />;
}
