import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** A record's fields as a description list: labels beside values, stacked on phones. */
export function DetailList({ children }: { children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Box
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'minmax(10rem, 14rem) minmax(0, 1fr)' },
          columnGap: 3,
          rowGap: { xs: 0.5, sm: 2 },
          '& dt': { color: 'text.secondary', fontWeight: 600, mt: { xs: 1.5, sm: 0 } },
          '& > div:first-of-type > dt': { mt: 0 },
          '& dd': { m: 0, minWidth: 0 },
        }}
      >
        {children}
      </Box>
    </Paper>
  );
}

/** One field of a DetailList; `name` marks the value (data-field) for tests and styling. */
export function DetailItem({ label, name, children }: { label: string; name: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'contents' }}>
      <Typography component="dt">{label}</Typography>
      <Typography component="dd" data-field={name}>
        {children}
      </Typography>
    </Box>
  );
}
