import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';

/** A narrow outlined card centred on the page: a form that stands alone (sign-in, the distribution list's sign-up). */
export function CenteredCard({ maxWidth = 420, children }: { maxWidth?: number; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center' }}>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth, p: { xs: 2.5, sm: 4 } }}>
        {children}
      </Paper>
    </Box>
  );
}
