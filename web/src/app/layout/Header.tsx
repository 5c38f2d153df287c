import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useGetTenantQuery, useLogoutMutation } from '../../api/api';
import { tenantDisplayName } from '../../api/tenant-name';
import { Logo } from '../../components/Logo';
import { logout, selectAccessLevel, selectSession } from '../../features/session/session.slice';
import { useAppDispatch, useAppSelector } from '../hooks';

const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

export function Header() {
  const dispatch = useAppDispatch();
  const { data: tenant } = useGetTenantQuery();
  const session = useAppSelector(selectSession);
  const accessLevel = useAppSelector(selectAccessLevel);
  const [requestLogout, { isLoading: loggingOut }] = useLogoutMutation();

  const handleLogout = async () => {
    // The local session ends even when the server cannot be told (offline, token already expired).
    await requestLogout().unwrap().catch(() => undefined);
    dispatch(logout('user'));
  };

  return (
    <AppBar
      position="static"
      elevation={0}
      sx={{ bgcolor: 'background.paper', color: 'text.primary', borderBottom: 1, borderColor: 'divider' }}
    >
      <Box
        sx={{
          width: '85%',
          mx: 'auto',
          minHeight: 64,
          py: 1,
          display: 'flex',
          alignItems: 'center',
          flexWrap: 'wrap',
          columnGap: 2,
          rowGap: 1,
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, minWidth: 0, flex: '1 1 auto' }}>
          <Link component={RouterLink} to="/" underline="none" aria-label="intelnotes home" sx={{ display: 'inline-flex' }}>
            <Logo />
          </Link>
          <Divider orientation="vertical" flexItem />
          <Typography data-testid="tenant-name" noWrap sx={{ fontWeight: 600, minWidth: 0 }}>
            {tenant ? tenantDisplayName(tenant) : ''}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0, ml: 'auto' }}>
          <Box component="span" sx={visuallyHidden}>
            Access level:
          </Box>
          <Chip
            data-testid="access-level"
            label={accessLevel}
            size="small"
            variant={accessLevel === 'public' ? 'outlined' : 'filled'}
            color={accessLevel === 'admin' ? 'primary' : 'default'}
          />
          {session.token === null ? (
            <Button variant="contained" component={RouterLink} to="/login">
              Login
            </Button>
          ) : (
            <>
              <Typography
                variant="body2"
                noWrap
                title={session.email ?? undefined}
                sx={{ color: 'text.secondary', minWidth: 0, maxWidth: { xs: 140, sm: 260 } }}
              >
                {session.email}
              </Typography>
              <Button variant="outlined" color="inherit" onClick={() => void handleLogout()} loading={loggingOut}>
                Logout
              </Button>
            </>
          )}
        </Box>
      </Box>
    </AppBar>
  );
}
