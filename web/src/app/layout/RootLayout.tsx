import { useCallback, useState } from 'react';
import Box from '@mui/material/Box';
import { Outlet, ScrollRestoration } from 'react-router';
import { useMeQuery } from '../../api/api';
import { MenuDialog } from '../../features/menu/MenuDialog';
import { SearchDialog } from '../../features/search/SearchDialog';
import { useSearchShortcut } from '../../features/search/use-search-shortcut';
import { TenantGate } from '../../features/tenant/TenantGate';
import { selectToken, useSessionSelector } from '../../lib/session';
import { Footer } from './Footer';
import { Header } from './Header';
import { PageReloadProvider, usePageReload } from './page-reload';
import { PageTitleProvider } from '../../lib/page-title';

export function RootLayout() {
  const token = useSessionSelector(selectToken);
  // Checks a restored token once per session: an expired one answers 401, which logs out,
  // and the stored flags (admin, research, tenant management) are refreshed from the answer.
  useMeQuery(undefined, { skip: token === null });

  return (
    <PageTitleProvider>
      <TenantGate>
        <PageReloadProvider>
          <Shell />
        </PageReloadProvider>
        <ScrollRestoration />
      </TenantGate>
    </PageTitleProvider>
  );
}

function Shell() {
  const { reloadKey } = usePageReload();
  const [searchOpen, setSearchOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const openSearch = useCallback(() => setSearchOpen(true), []);
  useSearchShortcut(openSearch);

  return (
    <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column' }}>
      <Box
        component="a"
        href="#main"
        sx={{
          position: 'absolute',
          left: 8,
          top: -48,
          zIndex: 'tooltip',
          px: 2,
          py: 1,
          bgcolor: 'background.paper',
          color: 'text.primary',
          borderRadius: 1,
          boxShadow: 3,
          '&:focus': { top: 8 },
        }}
      >
        Skip to content
      </Box>
      <Header onOpenSearch={openSearch} onOpenMenu={() => setMenuOpen(true)} />
      <Box
        component="main"
        id="main"
        tabIndex={-1}
        sx={{ width: '85%', mx: 'auto', flex: 1, py: { xs: 3, sm: 4 }, outline: 'none' }}
      >
        {/* Clicking the active tab remounts the page so it loads afresh. */}
        <Outlet key={reloadKey} />
      </Box>
      <Footer />
      <SearchDialog open={searchOpen} onClose={() => setSearchOpen(false)} />
      <MenuDialog open={menuOpen} onClose={() => setMenuOpen(false)} />
    </Box>
  );
}
