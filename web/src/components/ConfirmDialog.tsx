import { useId, useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** A destructive action gets a red button. */
  danger?: boolean;
  busy?: boolean;
  /**
   * Text the user must type before the confirm button works (e.g. a tenant's code), for
   * actions whose consequences are too large for one click.
   */
  typeToConfirm?: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before doing something that cannot be taken back. Cancel has the initial focus. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  danger = false,
  busy = false,
  typeToConfirm,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const titleId = useId();
  const textId = useId();
  const [typed, setTyped] = useState('');
  const confirmed = typeToConfirm === undefined || typed.trim() === typeToConfirm;
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      aria-labelledby={titleId}
      aria-describedby={textId}
      role="alertdialog"
      // Every opening starts with an empty confirmation box.
      slotProps={{ transition: { onExited: () => setTyped('') } }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId} sx={{ overflowWrap: 'anywhere' }}>
          {children}
        </DialogContentText>
        {typeToConfirm !== undefined && (
          <TextField
            label={`Type ${typeToConfirm} to confirm`}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && confirmed && !busy) onConfirm();
            }}
            disabled={busy}
            fullWidth
            autoComplete="off"
            sx={{ mt: 2.5 }}
            slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none' } }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy} autoFocus>
          Cancel
        </Button>
        <Button onClick={onConfirm} disabled={busy || !confirmed} variant="contained" color={danger ? 'error' : 'primary'}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
