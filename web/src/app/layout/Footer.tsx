import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { OPEN_DATA_URL, SETUP_GUIDE_URL } from '../config';

export function Footer() {
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
          <Link variant="body2" href={OPEN_DATA_URL} target="_blank" rel="noopener noreferrer">
            Open data
          </Link>
        </Box>
        <Typography variant="body2">
          Want intel notes for your own team?{' '}
          <Link href={SETUP_GUIDE_URL} target="_blank" rel="noopener noreferrer">
            Set up your own instance.
          </Link>
        </Typography>
      </Box>
    </Box>
  );
}
