import { useId } from 'react';
import Paper from '@mui/material/Paper';
import { useNavigate } from 'react-router';
import { MenuPanel } from './MenuPanel';

/** /menu/: the menu as a page of its own. */
export function MenuPage() {
  const navigate = useNavigate();
  const titleId = useId();
  // React Router numbers the entries of its own history: go back when this app was here before.
  const canGoBack = ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;
  const close = () => void (canGoBack ? navigate(-1) : navigate('/'));
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId}>
      <MenuPanel titleId={titleId} variant="page" onClose={close} onNavigated={() => undefined} />
    </Paper>
  );
}
