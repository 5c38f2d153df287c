import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { StatusMessage } from './StatusMessage';

interface NotFoundPageProps {
  /** The host names no tenant: there is no home page to offer either. */
  unknownTenant?: boolean;
}

export function NotFoundPage({ unknownTenant = false }: NotFoundPageProps) {
  return (
    <StatusMessage
      title="Oops, we can't find a pulse..."
      actions={
        !unknownTenant && (
          <Button variant="contained" component={RouterLink} to="/">
            Go to the home page
          </Button>
        )
      }
    >
      <Typography color="text.secondary">
        {unknownTenant ? 'There is no workspace at this address.' : 'The page you are looking for does not exist.'}
      </Typography>
    </StatusMessage>
  );
}
