import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { RecordSections } from '../../lib/record-sections';
import { libraryView } from './library.view';

/** A library entry, then what app/ puts in its slot (the relationship graph). */
export function LibraryDetailPage() {
  return <ResourceDetailPage view={libraryView} sections={(id) => <RecordSections kind={libraryView.kind} id={id} />} />;
}
