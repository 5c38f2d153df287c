import { useId } from 'react';
import Dialog from '@mui/material/Dialog';
import { MenuPanel } from './MenuPanel';

interface MenuDialogProps {
  open: boolean;
  onClose: () => void;
}

/** The full-screen menu opened from the header. */
export function MenuDialog({ open, onClose }: MenuDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} fullScreen aria-labelledby={titleId}>
      <MenuPanel titleId={titleId} variant="dialog" onClose={onClose} onNavigated={onClose} />
    </Dialog>
  );
}
