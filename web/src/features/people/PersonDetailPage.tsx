import Stack from '@mui/material/Stack';
import { useParams } from 'react-router';
import { ResourceDetailPage } from '../../components/ResourceDetailPage';
import { RecordSections } from '../../lib/record-sections';
import { peopleView } from './people.view';

/** A person, with the investments they hold below their fields (a section of the ledger feature, put in the page's slot by app/record-sections.tsx). */
export function PersonDetailPage() {
  const { id = '' } = useParams();
  return (
    <Stack spacing={4}>
      <ResourceDetailPage view={peopleView} />
      <RecordSections kind={peopleView.kind} id={id} />
    </Stack>
  );
}
