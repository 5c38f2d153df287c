import { createTheme } from '@mui/material/styles';

const BRAND = '#FB4C02';
// Brand orange on white is only 3.4:1, too low for body-size text (WCAG AA wants 4.5:1).
// Text-coloured accents (links, focused labels, focus rings) use this darker shade (5.4:1).
const BRAND_TEXT = '#C23A00';

export const theme = createTheme({
  palette: {
    primary: { main: BRAND, dark: BRAND_TEXT },
    background: { default: '#F7F7F8', paper: '#FFFFFF' },
    // Makes MUI pick dark text on the orange when white would fail AA.
    contrastThreshold: 4.5,
  },
  shape: { borderRadius: 8 },
  typography: {
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiLink: {
      defaultProps: { color: BRAND_TEXT, underline: 'hover' },
      styleOverrides: {
        root: {
          '&:focus-visible': { outline: `2px solid ${BRAND_TEXT}`, outlineOffset: 2, borderRadius: 2 },
        },
      },
    },
    MuiInputLabel: {
      styleOverrides: {
        root: { '&.Mui-focused': { color: BRAND_TEXT } },
      },
    },
    MuiButtonBase: {
      styleOverrides: {
        root: {
          '&.Mui-focusVisible': { outline: `2px solid ${BRAND_TEXT}`, outlineOffset: 2 },
        },
      },
    },
  },
});
