import MenuIcon from '@mui/icons-material/Menu';
import SearchIcon from '@mui/icons-material/Search';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { Link as RouterLink } from 'react-router';
import { useGetTenantQuery } from '../../api/api';
import { tenantDisplayName } from '../../api/tenant-name';
import { Logo, WORDMARK } from '../../components/Logo';
import { VisuallyHidden } from '../../components/VisuallyHidden';
import { selectAccessLevel, selectSession, useSessionSelector } from '../../lib/session';
import { useSignOut } from '../../lib/use-sign-out';
import { LiveIndicator } from './LiveIndicator';
import { NavTabs } from './NavTabs';

interface HeaderProps {
  onOpenSearch: () => void;
  onOpenMenu: () => void;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const SEARCH_SHORTCUT = isMac ? '⌘F' : 'Ctrl+F';

export function Header({ onOpenSearch, onOpenMenu }: HeaderProps) {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const { data: tenant } = useGetTenantQuery();
  const session = useSessionSelector(selectSession);
  const accessLevel = useSessionSelector(selectAccessLevel);
  const { signOut, signingOut } = useSignOut();
  const tenantName = tenant ? tenantDisplayName(tenant) : '';
  // Tenant settings; until the tenant info arrives, the usual layout. A name that repeats the
  // wordmark beside it (the default tenant is called "intelnotes") is read once, in the logo.
  const repeatsWordmark = tenantName.trim().toLowerCase() === WORDMARK;
  const showTenantName = (tenant?.header_show_tenant_name ?? true) && !repeatsWordmark;
  const showAccessLevel = tenant?.header_show_access_level ?? true;

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
        <Box sx={{ display: 'flex', alignItems: 'center', gap: { xs: 1.5, sm: 2 }, minWidth: 0, flex: '1 1 auto' }}>
          <Link component={RouterLink} to="/" underline="none" aria-label="intelnotes home" sx={{ display: 'inline-flex' }}>
            <Logo />
          </Link>
          {showTenantName && (
            <>
              <Divider orientation="vertical" flexItem />
              <Typography data-testid="tenant-name" noWrap sx={{ fontWeight: 600, minWidth: 0 }}>
                {tenantName}
              </Typography>
            </>
          )}
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: { xs: 0.5, sm: 1.5 }, minWidth: 0, ml: 'auto' }}>
          <Tooltip title={`Search (${SEARCH_SHORTCUT})`}>
            <IconButton aria-label="Search" aria-keyshortcuts="Meta+F Control+F" onClick={onOpenSearch}>
              <SearchIcon />
            </IconButton>
          </Tooltip>
          {session.token !== null && <LiveIndicator />}
          {showAccessLevel && (
            <>
              <VisuallyHidden>Access level:</VisuallyHidden>
              <Chip
                data-testid="access-level"
                label={accessLevel}
                size="small"
                variant={accessLevel === 'public' ? 'outlined' : 'filled'}
                color={accessLevel === 'admin' ? 'primary' : 'default'}
              />
            </>
          )}
          {session.token === null ? (
            <Button variant="contained" component={RouterLink} to="/login" sx={{ ml: { xs: 0.5, sm: 0 } }}>
              {wide && tenantName ? `Login to read ${tenantName}'s intel notes` : 'Login'}
            </Button>
          ) : (
            wide && (
              <>
                <Typography
                  variant="body2"
                  noWrap
                  title={session.email ?? undefined}
                  sx={{ color: 'text.secondary', minWidth: 0, maxWidth: 260 }}
                >
                  {session.email}
                </Typography>
                <Button variant="outlined" color="inherit" onClick={() => void signOut()} loading={signingOut}>
                  Logout
                </Button>
              </>
            )
          )}
          <Tooltip title="Menu">
            <IconButton aria-label="Open menu" aria-haspopup="dialog" onClick={onOpenMenu} edge="end">
              <MenuIcon />
            </IconButton>
          </Tooltip>
        </Box>
      </Box>
      <Divider sx={{ display: { xs: 'none', md: 'block' } }} />
      <NavTabs />
    </AppBar>
  );
}
