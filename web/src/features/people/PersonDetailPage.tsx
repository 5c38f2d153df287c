import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { RecordSections } from '../../lib/record-sections';
import { peopleView } from './people.view';

/** A person, with the investments they hold below their fields (a section of the ledger feature, put in the page's slot by app/record-sections.tsx). */
export function PersonDetailPage() {
  return <ResourceDetailPage view={peopleView} sections={(id) => <RecordSections kind={peopleView.kind} id={id} />} />;
}
