import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useGetTenantQuery } from '../../api/api';
import { tenantDisplayName } from '../../api/tenant-name';
import { useAppSelector } from '../../app/hooks';
import { selectAccessLevel, selectSession } from '../session/session.slice';

export function HomePage() {
  const { data: tenant } = useGetTenantQuery();
  const session = useAppSelector(selectSession);
  const accessLevel = useAppSelector(selectAccessLevel);
  const name = tenant ? tenantDisplayName(tenant) : '';

  return (
    <>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 2, overflowWrap: 'anywhere' }}>
        {name}
      </Typography>
      {session.token !== null ? (
        <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          Signed in as {session.email} ({accessLevel})
        </Typography>
      ) : (
        <Typography>
          <Link component={RouterLink} to="/login">
            Login to read {name}&apos;s intel notes
          </Link>
        </Typography>
      )}
    </>
  );
}
