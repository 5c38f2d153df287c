import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { StatusMessage } from './StatusMessage';

interface NotAvailableYetProps {
  /** What the screen is for, e.g. "Raw data" or "Edit keyword". */
  feature: string;
  /** Shown inside a page that has its own h1 (a tab), rather than as the page itself. */
  inPage?: boolean;
}

/** The honest state of a route or tab whose screen has not been built yet. */
export function NotAvailableYet({ feature, inPage = false }: NotAvailableYetProps) {
  return (
    <StatusMessage
      title={feature}
      headingComponent={inPage ? 'h2' : 'h1'}
      actions={
        !inPage && (
          <Button variant="contained" component={RouterLink} to="/">
            Go to the home page
          </Button>
        )
      }
    >
      <Typography color="text.secondary" data-testid="not-available-yet">
        {feature} is not available yet in this version of intelnotes.
      </Typography>
    </StatusMessage>
  );
}
