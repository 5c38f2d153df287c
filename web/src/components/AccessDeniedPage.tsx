import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { StatusMessage } from './StatusMessage';

interface AccessDeniedPageProps {
  /** Who may open the page, e.g. "research and admin users". */
  allowed: string;
}

/** Shown to a signed-in user who opens a page above their access level. */
export function AccessDeniedPage({ allowed }: AccessDeniedPageProps) {
  return (
    <StatusMessage
      title="Access denied"
      actions={
        <Button variant="contained" component={RouterLink} to="/">
          Go to the home page
        </Button>
      }
    >
      <Typography color="text.secondary">
        This page is only for {allowed}. Ask an admin of this workspace if you need access.
      </Typography>
    </StatusMessage>
  );
}
