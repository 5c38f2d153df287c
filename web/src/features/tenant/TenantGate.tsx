import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useGetTenantQuery } from '../../api/api';
import { apiErrorMessage } from '../../api/api-error';
import { Logo } from '../../components/Logo';
import { NotFoundPage } from '../../components/NotFoundPage';
import { StatusMessage } from '../../components/StatusMessage';
import { selectToken, useSessionSelector } from '../../lib/session';

/** Frame for the states shown before there is a tenant to put in the header. */
function Bare({ children }: { children: ReactNode }) {
  return (
    <Box component="main" sx={{ width: '85%', mx: 'auto', pt: 4 }}>
      <Box sx={{ display: 'flex', justifyContent: 'center' }}>
        <Logo />
      </Box>
      {children}
    </Box>
  );
}

/**
 * Loads the tenant named by the host and renders the shell only when SPEC §4 allows it: for a
 * tenant that exists, or at once when a token exists (a session was issued by this tenant; the
 * tenant name fills in when it arrives). A host that names no tenant shows the 404 page.
 */
export function TenantGate({ children }: { children: ReactNode }) {
  const signedIn = useSessionSelector(selectToken) !== null;
  const { data: tenant, error, isFetching, refetch } = useGetTenantQuery();

  if (tenant && !tenant.exists) {
    return (
      <Bare>
        <NotFoundPage unknownTenant />
      </Bare>
    );
  }
  if (tenant || signedIn) return children;

  if (error && !isFetching) {
    return (
      <Bare>
        <StatusMessage
          title="We could not load this workspace"
          actions={
            <Button variant="contained" onClick={() => void refetch()}>
              Try again
            </Button>
          }
        >
          <Typography role="alert" color="text.secondary">
            {apiErrorMessage(error)}
          </Typography>
        </StatusMessage>
      </Bare>
    );
  }

  return <LinearProgress aria-label="Loading workspace" />;
}
