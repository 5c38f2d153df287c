import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { RecordSections } from '../../lib/record-sections';
import { libraryView } from './library.view';

export function LibraryDetailPage() {
  return <ResourceDetailPage view={libraryView} sections={(id) => <RecordSections kind={libraryView.kind} id={id} />} />;
}
