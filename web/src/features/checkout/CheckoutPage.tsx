import { useEffect, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { useDispatch } from 'react-redux';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useGetTenantQuery, useSessionOfTokenMutation } from '../../api/api';
import { tenantDisplayName } from '../../api/tenant-name';
import { CenteredCard } from '../../components/CenteredCard';
import { PageHeading } from '../../components/PageHeading';
import type { LoginRedirectState } from '../../lib/route-groups';
import { sameOriginPath } from '../../lib/return-path';
import { selectSession, setSession, useSessionSelector } from '../../lib/session';

/** The parameters a payment provider's success link may carry back (`next`, or `return`). */
const RETURN_PARAMS = ['next', 'return'];

type SignIn =
  | { state: 'none' }
  | { state: 'checking' }
  | { state: 'signed-in' }
  | { state: 'refused' }
  | { state: 'failed' };

/**
 * /checkout: where a payment provider sends the reader after paying (SPEC §2 "checkout (payment
 * success)"). It thanks them; a `token` in the URL is the session the payment opened: the page
 * takes it out of the address at once (the history entry is replaced, so it is neither kept in
 * the history nor sent on as a referrer), asks GET auth/me/ with it whom it belongs to and signs
 * them in. `next` (or `return`) says what they were reading; only a path of this site is followed.
 */
export function CheckoutPage() {
  const dispatch = useDispatch();
  const [params, setParams] = useSearchParams();
  const session = useSessionSelector(selectSession);
  const { data: tenant } = useGetTenantQuery();
  const [checkToken] = useSessionOfTokenMutation();
  // Read once, before the address loses it.
  const [token] = useState(() => params.get('token')?.trim() || null);
  const [next] = useState(() => RETURN_PARAMS.map((name) => sameOriginPath(params.get(name), window.location.origin)).find(Boolean) ?? null);
  const [signIn, setSignIn] = useState<SignIn>(token ? { state: 'checking' } : { state: 'none' });
  const started = useRef(false);

  const verify = async (value: string) => {
    setSignIn({ state: 'checking' });
    const result = await checkToken(value);
    if ('data' in result && result.data) {
      dispatch(setSession({ ...result.data, token: value }));
      setSignIn({ state: 'signed-in' });
    } else {
      const status = 'error' in result ? (result.error as { status?: unknown }).status : undefined;
      setSignIn(status === 401 || status === 403 ? { state: 'refused' } : { state: 'failed' });
    }
  };

  useEffect(() => {
    if (params.has('token')) {
      const clean = new URLSearchParams(params);
      clean.delete('token');
      setParams(clean, { replace: true });
    }
    // Once, even when development mode runs effects twice.
    if (token && !started.current) {
      started.current = true;
      void verify(token);
    }
    // Only on arrival: the address changes right here.
  }, []);

  const destination = next ?? '/';
  const site = tenant ? tenantDisplayName(tenant) : null;
  const loginState: LoginRedirectState = { from: destination };

  return (
    <CenteredCard maxWidth={520}>
      <Stack spacing={2.5} sx={{ alignItems: 'flex-start' }} data-testid="checkout">
        <CheckCircleIcon color="success" sx={{ fontSize: 48 }} />
        <PageHeading>Thank you for your payment</PageHeading>
        <Typography color="text.secondary">
          {site ? `Your access to ${site} is being set up.` : 'Your access is being set up.'} The notes your plan includes unlock as soon as you are signed in.
        </Typography>

        {signIn.state === 'checking' && (
          <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center' }}>
            <CircularProgress size={20} aria-hidden />
            <Typography>Signing you in…</Typography>
          </Stack>
        )}
        {(signIn.state === 'signed-in' || (signIn.state === 'none' && session.token !== null)) && (
          <Alert severity="success" role="status" sx={{ width: '100%', overflowWrap: 'anywhere' }}>
            You are signed in as {session.email}.
          </Alert>
        )}
        {signIn.state === 'refused' && (
          <Alert severity="warning" role="alert" sx={{ width: '100%' }}>
            This sign-in link has expired or is no longer valid. Sign in with your email and password to continue.
          </Alert>
        )}
        {signIn.state === 'failed' && (
          <Alert
            severity="error"
            role="alert"
            sx={{ width: '100%' }}
            action={
              <Button color="inherit" size="small" onClick={() => token && void verify(token)}>
                Retry
              </Button>
            }
          >
            Could not sign you in just now. Please try again.
          </Alert>
        )}

        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignSelf: 'stretch' }}>
          <Button variant="contained" size="large" component={RouterLink} to={destination} disabled={signIn.state === 'checking'}>
            {next ? 'Continue reading' : 'Go to the home page'}
          </Button>
          {session.token === null && signIn.state !== 'checking' && (
            <Button variant="outlined" size="large" component={RouterLink} to="/login" state={loginState}>
              Login
            </Button>
          )}
        </Stack>
      </Stack>
    </CenteredCard>
  );
}
