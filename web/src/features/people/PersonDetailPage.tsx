import Stack from '@mui/material/Stack';
import { useParams } from 'react-router';
import { InvestmentsSection } from '../../components/InvestmentsSection';
import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { peopleView } from './people.view';

/** A person, with the investments they hold below their fields. */
export function PersonDetailPage() {
  const { id = '' } = useParams();
  return (
    <Stack spacing={4}>
      <ResourceDetailPage view={peopleView} />
      <InvestmentsSection parentKind="people" parentId={id} />
    </Stack>
  );
}
