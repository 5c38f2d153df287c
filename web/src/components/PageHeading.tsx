import type { SxProps, Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { usePageTitle } from '../lib/page-title';

/** A page's h1; its text is also the page's part of the browser tab's title (lib/page-title.tsx). */
export function PageHeading({ children, sx }: { children: string; sx?: SxProps<Theme> }) {
  usePageTitle(children);
  return (
    <Typography variant="h4" component="h1" sx={[{ fontWeight: 700, overflowWrap: 'anywhere' }, ...(Array.isArray(sx) ? sx : [sx])]}>
      {children}
    </Typography>
  );
}
