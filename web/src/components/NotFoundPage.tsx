import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { StatusMessage } from './StatusMessage';

interface NotFoundPageProps {
  /** Off for an unknown tenant, where the home page does not exist either. */
  showHomeLink?: boolean;
}

export function NotFoundPage({ showHomeLink = true }: NotFoundPageProps) {
  return (
    <StatusMessage
      title="Oops, we can't find a pulse..."
      actions={
        showHomeLink && (
          <Button variant="contained" component={RouterLink} to="/">
            Go to the home page
          </Button>
        )
      }
    >
      <Typography color="text.secondary">The page you are looking for does not exist.</Typography>
    </StatusMessage>
  );
}
