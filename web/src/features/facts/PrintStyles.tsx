import GlobalStyles from '@mui/material/GlobalStyles';

/**
 * The reader's print stylesheet: only the facts on white paper — no header, tabs, footer,
 * toasts, filters or buttons; every collapsed subtree opened; a link's address printed after
 * it; a fact kept on one page where it fits.
 */
export function PrintStyles() {
  return (
    <GlobalStyles
      styles={{
        '@media print': {
          '@page': { margin: '16mm 14mm' },
          'body': { background: '#fff !important', color: '#000 !important' },
          'header, nav, footer, .Toastify, .facts-no-print, a[href="#main"]': { display: 'none !important' },
          'main#main': { width: '100% !important', padding: '0 !important', margin: '0 !important' },
          '.fact-children[hidden]': { display: 'block !important' },
          '.fact-toggle svg': { display: 'none' },
          '.fact-toggle::before': { content: '"•"', color: '#000' },
          '.fact-node': { breakInside: 'avoid' },
          '.facts-section h2, .facts-section h3': { breakAfter: 'avoid' },
          '.fact-node a[href^="http"]::after': { content: '" (" attr(href) ")"', fontSize: '0.85em', color: '#444' },
          '.MuiChip-root': { border: '1px solid #999 !important', color: '#000 !important' },
        },
      }}
    />
  );
}
