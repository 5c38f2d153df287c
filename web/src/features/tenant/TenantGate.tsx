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
 * Loads the tenant named by the host (SPEC §4) and renders the shell only for a
 * tenant that exists.
 */
export function TenantGate({ children }: { children: ReactNode }) {
  const { data: tenant, error, isFetching, refetch } = useGetTenantQuery();

  if (tenant) {
    if (!tenant.exists) {
      return (
        <Bare>
          <NotFoundPage unknownTenant />
        </Bare>
      );
    }
    return children;
  }

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
