import Stack from '@mui/material/Stack';
import { useParams } from 'react-router';
import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { RecordSections } from '../../lib/record-sections';
import { organizationsView } from './organizations.view';

/** An organization, with the investments it holds below its fields (a section of the ledger feature, put in the page's slot by app/record-sections.tsx). */
export function OrganizationDetailPage() {
  const { id = '' } = useParams();
  return (
    <Stack spacing={4}>
      <ResourceDetailPage view={organizationsView} />
      <RecordSections kind={organizationsView.kind} id={id} />
    </Stack>
  );
}
