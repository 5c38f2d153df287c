import { useId, useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';

interface ValueDialogProps {
  title: string;
  label: string;
  initial: string;
  helperText?: string;
  inputMode?: 'text' | 'numeric';
  maxLength?: number;
  /** Why the typed value cannot be used, or null. */
  problemOf: (value: string) => string | null;
  onSave: (value: string) => void;
  onClose: () => void;
}

/** Edits one value of a query (its search words, its limit), checked before it is used. */
export function ValueDialog({ title, label, initial, helperText, inputMode = 'text', maxLength = 500, problemOf, onSave, onClose }: ValueDialogProps) {
  const titleId = useId();
  const [value, setValue] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = problemOf(value.trim());
    if (found) return setProblem(found);
    onSave(value.trim());
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          <TextField
            label={label}
            value={value}
            onChange={(event) => {
              setProblem(null);
              setValue(event.target.value);
            }}
            error={problem !== null}
            helperText={problem ?? helperText}
            slotProps={{ htmlInput: { inputMode, maxLength } }}
            fullWidth
            autoFocus
            sx={{ mt: 1 }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained">
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
