import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import LockIcon from '@mui/icons-material/Lock';
import { Link as RouterLink, useLocation } from 'react-router';
import { useGetTenantQuery } from '../../api/api';
import type { LoginRedirectState } from '../../lib/route-groups';
import { selectToken, useSessionSelector } from '../../lib/session';

const formatter = new Intl.NumberFormat('en-US');

/**
 * The facts the paywall hides from this reader, counted behind a lock (as the home cards count
 * paywalled records), with the tenant's offer: its payment message and link, and signing in.
 */
export function LockedOffer({ count }: { count: number }) {
  const { data: tenant } = useGetTenantQuery();
  const location = useLocation();
  const signedIn = useSessionSelector(selectToken) !== null;
  if (count <= 0) return null;
  const link = tenant?.payment_access_link ?? null;
  const message = tenant?.payment_access_message?.trim() || (signedIn ? 'Your account does not include them.' : 'Sign in with an account that includes them to read them.');
  const from: LoginRedirectState = { from: `${location.pathname}${location.search}` };
  return (
    <Alert
      severity="info"
      icon={<LockIcon />}
      data-testid="locked-offer"
      className="facts-no-print"
      action={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          {link && (
            <Button variant="contained" size="small" href={link} target="_blank" rel="noopener noreferrer">
              Unlock
            </Button>
          )}
          {!signedIn && (
            <Button variant={link ? 'outlined' : 'contained'} size="small" component={RouterLink} to="/login" state={from}>
              Login
            </Button>
          )}
        </Stack>
      }
      sx={{ alignItems: 'center', '& .MuiAlert-action': { pt: 0 } }}
    >
      <AlertTitle sx={{ mb: 0.25 }}>
        {formatter.format(count)} more {count === 1 ? 'fact is' : 'facts are'} locked
      </AlertTitle>
      <span style={{ whiteSpace: 'pre-line' }}>{message}</span>
    </Alert>
  );
}
