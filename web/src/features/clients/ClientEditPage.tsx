import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useParams } from 'react-router';
import { apiErrorMessage } from '../../api/api-error';
import { useGetClientQuery } from './clients.api';
import { formatDateTime } from '../../components/field-format';
import { RetryAlert } from '../../components/RetryAlert';
import { StatusMessage } from '../../components/StatusMessage';
import { ClientForm } from './ClientForm';
import { DeleteClientPanel } from './DeleteClientPanel';
import { tenantAddress } from './tenant-address';
import { PageHeading } from '../../components/PageHeading';

/** /clients/:id/edit: name and paywall of a tenant; deleting it. */
export function ClientEditPage() {
  const { id = '' } = useParams();
  const { data: client, error, isFetching, refetch } = useGetClientQuery(id, { refetchOnMountOrArgChange: true });

  if (!client || (isFetching && client.id !== id)) {
    if (!error || isFetching) return <LinearProgress aria-label="Loading the tenant" />;
    if ('status' in error && error.status === 404) {
      return (
        <StatusMessage
          title="Tenant not found"
          actions={
            <Button variant="contained" component={RouterLink} to="/clients">
              Back to tenants
            </Button>
          }
        />
      );
    }
    return <RetryAlert onRetry={() => void refetch()}>{apiErrorMessage(error)}</RetryAlert>;
  }

  const address = tenantAddress(client);
  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }}>
      <Stack spacing={0.5}>
        <PageHeading>{`Edit ${client.name}`}</PageHeading>
        <Typography color="text.secondary">
          <Link href={address} target="_blank" rel="noopener noreferrer">
            {address.replace(/^https?:\/\//, '')}
          </Link>{' '}
          · created {formatDateTime(client.created_at)}
        </Typography>
      </Stack>
      <ClientForm key={`${client.id}-${client.updated_at}`} client={client} />
      <DeleteClientPanel client={client} />
    </Stack>
  );
}
