import Stack from '@mui/material/Stack';
import { ClientForm } from './ClientForm';
import { PageHeading } from '../../components/PageHeading';

/** /clients/create */
export function ClientCreatePage() {
  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }}>
      <PageHeading>New tenant</PageHeading>
      <ClientForm />
    </Stack>
  );
}
