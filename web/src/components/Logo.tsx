import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** The wordmark beside the mark. */
export const WORDMARK = 'intelnotes';

/** The intelnotes mark and wordmark. */
export function Logo() {
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
      <Box
        component="svg"
        viewBox="0 0 32 32"
        aria-hidden="true"
        focusable="false"
        sx={{ width: 28, height: 28, flexShrink: 0 }}
      >
        <rect width="32" height="32" rx="7" fill="#FB4C02" />
        <circle cx="9" cy="10" r="2.5" fill="#fff" />
        <rect x="14" y="8.5" width="11" height="3" rx="1.5" fill="#fff" />
        <rect x="7" y="14.5" width="18" height="3" rx="1.5" fill="#fff" />
        <rect x="7" y="20.5" width="12" height="3" rx="1.5" fill="#fff" />
      </Box>
      <Typography component="span" sx={{ fontWeight: 800, fontSize: '1.25rem', letterSpacing: '-0.02em', color: 'text.primary' }}>
        {WORDMARK}
      </Typography>
    </Box>
  );
}
