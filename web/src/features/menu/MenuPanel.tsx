import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import LockIcon from '@mui/icons-material/LockOutlined';
import LockOpenOutlinedIcon from '@mui/icons-material/LockOpenOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useLocation, useNavigate } from 'react-router';
import { ALLOWED, useGroupAllowed, useRouteGroup } from '../../lib/route-groups';
import { VisuallyHidden } from '../../components/VisuallyHidden';
import {
  selectAccessLevel,
  selectCanManageTenants,
  selectIsAdmin,
  selectSession, useSessionSelector } from '../../lib/session';
import { useSignOut } from '../../lib/use-sign-out';
import { LAUNCHER, LAUNCHER_COLUMNS, type LauncherEntry, type LauncherGroup } from './launcher';

/** SPEC §9: on /lists the menu stays open this long after the page index is reset. */
const LISTS_CLOSE_DELAY_MS = 250;

interface MenuPanelProps {
  /** The close button. */
  onClose: () => void;
  /** After an entry navigated (the dialog closes; the page has nothing to do). */
  onNavigated: () => void;
  titleId: string;
  /** In the full-screen dialog (85% of the width, h2 title) or as the /menu page (h1 title). */
  variant: 'dialog' | 'page';
}

/** The full-screen menu: who is signed in, account actions and the launcher (SPEC §2). */
export function MenuPanel({ onClose, onNavigated, titleId, variant }: MenuPanelProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const session = useSessionSelector(selectSession);
  const accessLevel = useSessionSelector(selectAccessLevel);
  const isAdmin = useSessionSelector(selectIsAdmin);
  const canManageTenants = useSessionSelector(selectCanManageTenants);
  const { signOut, signingOut } = useSignOut();
  const signedIn = session.token !== null;
  const headingComponent = variant === 'page' ? 'h1' : 'h2';

  const go = async (to: string) => {
    const onLists = location.pathname === '/lists' || location.pathname.startsWith('/lists/');
    if (!onLists) {
      await navigate(to);
      onNavigated();
      return;
    }
    // The lists page keeps its page index in the URL: start the next visit on the first page.
    const params = new URLSearchParams(location.search);
    params.delete('offset');
    params.delete('page');
    const search = params.toString();
    await navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
    await navigate(to);
    window.setTimeout(onNavigated, LISTS_CLOSE_DELAY_MS);
  };

  const handleSignOut = async () => {
    onNavigated();
    await signOut();
  };

  const groups = (titles: readonly string[]) =>
    titles
      .map((title) => LAUNCHER.find((group) => group.title === title))
      .filter((group): group is LauncherGroup => group !== undefined);

  const visible = (entry: LauncherEntry) => !(entry.kind === 'route' && entry.tenantAdminOnly && !canManageTenants);

  return (
    <Box sx={variant === 'dialog' ? { width: '85%', mx: 'auto', py: { xs: 2, sm: 3 } } : { p: { xs: 2, sm: 3 } }}>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 1.5,
          pb: 2,
          mb: { xs: 2, sm: 3 },
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Typography id={titleId} variant="h5" component={headingComponent} sx={{ fontWeight: 700, mr: 1 }}>
          Menu
        </Typography>
        <VisuallyHidden>Access level:</VisuallyHidden>
        <Chip
          data-testid="menu-access-level"
          label={accessLevel}
          size="small"
          variant={accessLevel === 'public' ? 'outlined' : 'filled'}
          color={accessLevel === 'admin' ? 'primary' : 'default'}
        />
        {signedIn && (
          <Typography
            variant="body2"
            data-testid="menu-email"
            sx={{ color: 'text.secondary', overflowWrap: 'anywhere', minWidth: 0 }}
          >
            {session.email}
          </Typography>
        )}
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, ml: 'auto' }}>
          {isAdmin && (
            <>
              <Tooltip title="Quick collection">
                <IconButton aria-label="Quick collection" color="primary" onClick={() => void go('/shortcuts/')}>
                  <AddIcon />
                </IconButton>
              </Tooltip>
              <Tooltip title="Settings">
                <IconButton aria-label="Settings" onClick={() => void go('/settings')}>
                  <SettingsOutlinedIcon />
                </IconButton>
              </Tooltip>
            </>
          )}
          {signedIn ? (
            <Button
              variant="outlined"
              color="inherit"
              startIcon={<LogoutIcon />}
              loading={signingOut}
              onClick={() => void handleSignOut()}
            >
              Logout
            </Button>
          ) : (
            <Button variant="contained" startIcon={<LockOpenOutlinedIcon />} onClick={() => void go('/login')}>
              Unlock
            </Button>
          )}
          <Tooltip title="Close menu">
            <IconButton aria-label="Close menu" onClick={onClose} edge="end">
              <CloseIcon />
            </IconButton>
          </Tooltip>
        </Box>
      </Box>

      <Box
        component="nav"
        aria-label="Launcher"
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' }, gap: { xs: 2, md: 4 } }}
      >
        {LAUNCHER_COLUMNS.map((column) => (
          <Box key={column.join()} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            {groups(column).map((group) => (
              <Box component="section" key={group.title} aria-labelledby={`launcher-${group.title}`}>
                <Typography
                  id={`launcher-${group.title}`}
                  variant="overline"
                  component={headingComponent === 'h1' ? 'h2' : 'h3'}
                  sx={{ color: 'text.secondary', fontWeight: 700, px: 1 }}
                >
                  {group.title}
                </Typography>
                <List dense disablePadding>
                  {group.entries.filter(visible).map((entry) => (
                    <li key={entry.label}>
                      <LauncherItem entry={entry} onGo={(to) => void go(to)} />
                    </li>
                  ))}
                </List>
              </Box>
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}

function LauncherItem({ entry, onGo }: { entry: LauncherEntry; onGo: (to: string) => void }) {
  const groupOf = useRouteGroup();
  const allowed = useGroupAllowed();
  const Icon = entry.icon;
  const icon = (
    <ListItemIcon sx={{ minWidth: 36 }}>
      <Icon fontSize="small" />
    </ListItemIcon>
  );
  switch (entry.kind) {
    case 'route': {
      // A page the visitor may not open is shown, locked, rather than leading to "Access denied".
      const group = groupOf(entry.to);
      if (group && !allowed(group)) {
        return (
          <ListItemButton disabled aria-disabled="true" data-locked="true" sx={{ borderRadius: 1 }}>
            {icon}
            <ListItemText primary={entry.label} secondary={`For ${ALLOWED[group]}`} />
            <LockIcon fontSize="small" aria-label="Locked" sx={{ color: 'text.secondary' }} />
          </ListItemButton>
        );
      }
      return (
        <ListItemButton
          component="a"
          href={entry.to}
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey) return;
            event.preventDefault();
            onGo(entry.to);
          }}
          sx={{ borderRadius: 1 }}
        >
          {icon}
          <ListItemText primary={entry.label} />
        </ListItemButton>
      );
    }
    case 'external':
      return (
        <ListItemButton component="a" href={entry.href} target="_blank" rel="noopener noreferrer" sx={{ borderRadius: 1 }}>
          {icon}
          <ListItemText primary={entry.label} secondary={entry.description} />
          <OpenInNewIcon fontSize="small" aria-hidden="true" sx={{ color: 'text.secondary' }} />
          <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
        </ListItemButton>
      );
    case 'disabled':
      return (
        <ListItemButton disabled aria-disabled="true" sx={{ borderRadius: 1 }}>
          {icon}
          <ListItemText primary={entry.label} secondary="Not available yet" />
        </ListItemButton>
      );
  }
}
