import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

export function Footer() {
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Box
        sx={{
          width: '85%',
          mx: 'auto',
          py: 2,
          display: 'flex',
          flexWrap: 'wrap',
          justifyContent: 'space-between',
          gap: 1,
          color: 'text.secondary',
        }}
      >
        <Typography variant="body2">© {new Date().getFullYear()} intelnotes</Typography>
        <Typography variant="body2">v{__APP_VERSION__}</Typography>
      </Box>
    </Box>
  );
}
