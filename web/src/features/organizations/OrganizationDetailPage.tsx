import Stack from '@mui/material/Stack';
import { useParams } from 'react-router';
import { InvestmentsSection } from '../../components/InvestmentsSection';
import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { organizationsView } from './organizations.view';

/** An organization, with the investments it holds below its fields. */
export function OrganizationDetailPage() {
  const { id = '' } = useParams();
  return (
    <Stack spacing={4}>
      <ResourceDetailPage view={organizationsView} />
      <InvestmentsSection parentKind="organizations" parentId={id} />
    </Stack>
  );
}
