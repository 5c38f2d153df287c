import { InvestmentsSection } from './InvestmentsSection';
import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { RecordSections } from '../../lib/record-sections';
import { ledgerView } from './ledger.view';

/** A ledger entry with the investments in it (added, edited and deleted here by writers), then what app/ puts in its slot (the relationship graph). */
export function LedgerDetailPage() {
  return (
    <ResourceDetailPage
      view={ledgerView}
      sections={(id) => (
        <>
          <InvestmentsSection parentKind="ledger_entries" parentId={id} />
          <RecordSections kind={ledgerView.kind} id={id} />
        </>
      )}
    />
  );
}
