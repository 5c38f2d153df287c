import Stack from '@mui/material/Stack';
import { useParams } from 'react-router';
import { InvestmentsSection } from './InvestmentsSection';
import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { ledgerView } from './ledger.view';

/** A ledger entry with the investments in it (added, edited and deleted here by writers). */
export function LedgerDetailPage() {
  const { id = '' } = useParams();
  return (
    <Stack spacing={4}>
      <ResourceDetailPage view={ledgerView} />
      <InvestmentsSection parentKind="ledger_entries" parentId={id} />
    </Stack>
  );
}
