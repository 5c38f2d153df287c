import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ClientForm } from './ClientForm';

/** /clients/create */
export function ClientCreatePage() {
  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
        New tenant
      </Typography>
      <ClientForm />
    </Stack>
  );
}
