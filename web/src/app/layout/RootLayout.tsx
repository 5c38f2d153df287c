import Box from '@mui/material/Box';
import { Outlet, ScrollRestoration } from 'react-router';
import { useMeQuery } from '../../api/api';
import { TenantGate } from '../../features/tenant/TenantGate';
import { selectToken } from '../../features/session/session.slice';
import { useAppSelector } from '../hooks';
import { Footer } from './Footer';
import { Header } from './Header';

export function RootLayout() {
  const token = useAppSelector(selectToken);
  // Checks a restored token once per session: an expired one answers 401, which logs out,
  // and the stored flags (admin, research) are refreshed from the answer.
  useMeQuery(undefined, { skip: token === null });

  return (
    <TenantGate>
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
        <Header />
        <Box component="main" id="main" tabIndex={-1} sx={{ width: '85%', mx: 'auto', flex: 1, py: { xs: 3, sm: 4 }, outline: 'none' }}>
          <Outlet />
        </Box>
        <Footer />
      </Box>
      <ScrollRestoration />
    </TenantGate>
  );
}
