import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useGetTenantQuery } from '../../api/api';
import { OPEN_DATA_URL, SETUP_GUIDE_URL } from '../../lib/config';

/**
 * Copyright, version, the open-data link and the invitation to run an instance (SPEC §1), each
 * as the tenant's settings say (GET tenant/), plus the tenant's own footer text.
 */
export function Footer() {
  const { data: tenant } = useGetTenantQuery();
  // Until the tenant info arrives, the usual footer.
  const showOpenData = tenant?.footer_show_open_data_link ?? true;
  const showInvite = tenant?.footer_show_setup_invite ?? true;
  const footerText = tenant?.footer_text ?? null;

  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Box
        sx={{
          width: '85%',
          mx: 'auto',
          py: 2.5,
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'space-between',
          columnGap: 3,
          rowGap: 1,
          color: 'text.secondary',
        }}
      >
        <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, rowGap: 0.5 }}>
          <Typography variant="body2">© {new Date().getFullYear()} intelnotes</Typography>
          <Typography variant="body2" data-testid="app-version">
            v{__APP_VERSION__}
          </Typography>
          {showOpenData && (
            <Link variant="body2" href={tenant?.open_data_link ?? OPEN_DATA_URL} target="_blank" rel="noopener noreferrer">
              Open data
            </Link>
          )}
        </Box>
        {showInvite && (
          <Typography variant="body2">
            Want intel notes for your own team?{' '}
            <Link href={SETUP_GUIDE_URL} target="_blank" rel="noopener noreferrer">
              Set up your own instance.
            </Link>
          </Typography>
        )}
        {footerText && (
          <Typography variant="body2" data-testid="footer-text" sx={{ flexBasis: '100%', whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {footerText}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
