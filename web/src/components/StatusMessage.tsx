import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { usePageTitle } from '../lib/page-title';

interface StatusMessageProps {
  title: string;
  children?: ReactNode;
  /** Buttons or links offering a way out. */
  actions?: ReactNode;
  /** Heading level of the title: h1 for a whole page, h2 inside a page that has its own title. */
  headingComponent?: 'h1' | 'h2';
}

/** A centred full-page message: not found, failures, unknown tenant. As the page (h1), it names the browser tab too. */
export function StatusMessage({ title, children, actions, headingComponent = 'h1' }: StatusMessageProps) {
  usePageTitle(headingComponent === 'h1' ? title : null);
  return (
    <Box sx={{ py: { xs: 6, sm: 10 }, px: 2, textAlign: 'center' }}>
      <Typography
        variant={headingComponent === 'h1' ? 'h4' : 'h5'}
        component={headingComponent}
        sx={{ fontWeight: 700, mb: 2, overflowWrap: 'anywhere' }}
      >
        {title}
      </Typography>
      {children}
      {actions && (
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'center', mt: 3, flexWrap: 'wrap' }}>
          {actions}
        </Stack>
      )}
    </Box>
  );
}
