import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { RecordSections } from '../../lib/record-sections';
import { organizationsView } from './organizations.view';

/** An organization, with the investments it holds below its fields (a section of the ledger feature, put in the page's slot by app/record-sections.tsx). */
export function OrganizationDetailPage() {
  return <ResourceDetailPage view={organizationsView} sections={(id) => <RecordSections kind={organizationsView.kind} id={id} />} />;
}
