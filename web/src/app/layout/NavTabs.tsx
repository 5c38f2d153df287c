import type { MouseEvent } from 'react';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Link as RouterLink, useLocation } from 'react-router';
import { selectIsAdmin, useSessionSelector } from '../../lib/session';
import { INTELBOOKS_PATH } from '../../lib/paths';
import { usePageReload } from './page-reload';

interface NavTab {
  /** First path segment the tab stands for (it is active on every page under it). */
  segment: string;
  label: string;
  to: string;
  adminOnly?: boolean;
}

/** SPEC §2 "Top navigation tabs", in order. */
const TABS: readonly NavTab[] = [
  { segment: 'rawdata', label: 'Raw Data', to: '/rawdata?tab=1', adminOnly: true },
  { segment: 'keywords', label: 'Keywords', to: '/keywords' },
  { segment: 'emails', label: 'Emails', to: '/emails?tab=1', adminOnly: true },
  { segment: 'people', label: 'People', to: '/people?tab=1' },
  { segment: 'organizations', label: 'Organizations', to: '/organizations?tab=1' },
  { segment: 'ledger', label: 'Ledger', to: '/ledger?tab=1' },
  { segment: 'library', label: 'Library', to: '/library?tab=1' },
  { segment: 'lists', label: 'Lists', to: '/lists?tab=1' },
  { segment: 'facts', label: 'Intelbooks', to: INTELBOOKS_PATH },
];

/** The section tabs under the header; hidden below the md breakpoint, where the menu serves. */
export function NavTabs() {
  const { pathname } = useLocation();
  const isAdmin = useSessionSelector(selectIsAdmin);
  const { reload } = usePageReload();
  const tabs = TABS.filter((tab) => !tab.adminOnly || isAdmin);
  const segment = pathname.split('/')[1] ?? '';
  const active = tabs.find((tab) => tab.segment === segment)?.segment ?? false;

  const handleClick = (tab: NavTab) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (tab.segment !== active || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    reload(tab.to);
  };

  return (
    <Box
      component="nav"
      aria-label="Sections"
      data-testid="nav-tabs"
      sx={{ display: { xs: 'none', md: 'block' }, width: '85%', mx: 'auto' }}
    >
      <Tabs
        value={active}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        textColor="inherit"
        sx={{
          minHeight: 44,
          // text.secondary at full opacity: the inherit colour's default 60% opacity is too faint.
          // One padding for every tab instead of MUI's 90 px minimum width, which left short
          // labels ("People", "Lists") wider gaps than long ones ("Organizations").
          '& .MuiTab-root': { minHeight: 44, minWidth: 0, px: 2, color: 'text.secondary', opacity: 1 },
          '& .MuiTab-root.Mui-selected': { color: 'primary.dark' },
          // Off the tabbed sections there is no active tab, so no indicator either.
          '& .MuiTabs-indicator': { display: active === false ? 'none' : 'block' },
        }}
      >
        {tabs.map((tab) => (
          <Tab
            key={tab.segment}
            value={tab.segment}
            label={tab.label}
            component={RouterLink}
            to={tab.to}
            onClick={handleClick(tab)}
            aria-current={tab.segment === active ? 'page' : undefined}
          />
        ))}
      </Tabs>
    </Box>
  );
}
