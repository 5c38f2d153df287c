import { useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';

/** The longest fact (issue 18's contract: text ≤ 5,000 characters). */
export const FACT_MAX_LENGTH = 5000;

interface FactInputProps {
  label: string;
  initial?: string;
  saveLabel: string;
  busy?: boolean;
  /** The server's reason the text was refused, shown under the box. */
  error?: string | null;
  /** Controls beside the text (the new fact's visibility and category). */
  extra?: ReactNode;
  onSave: (text: string) => void;
  onCancel: () => void;
}

/**
 * A fact's text typed in place: Enter saves (Shift+Enter starts a new line), Escape cancels.
 * Bold, italic and links are written as in Markdown (**bold**, *italic*, [label](https://…)).
 */
export function FactInput({ label, initial = '', saveLabel, busy = false, error, extra, onSave, onCancel }: FactInputProps) {
  const [text, setText] = useState(initial);
  const save = () => {
    if (text.trim() !== '' && !busy) onSave(text.trim());
  };
  return (
    <Stack spacing={1} sx={{ py: 0.5, flex: 1, minWidth: 0 }} onClick={(event) => event.stopPropagation()}>
      <TextField
        label={label}
        value={text}
        autoFocus
        multiline
        minRows={1}
        size="small"
        fullWidth
        disabled={busy}
        error={Boolean(error)}
        helperText={error ?? 'Enter saves, Shift+Enter starts a new line, Escape cancels. **bold**, *italic*, [link](https://…)'}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          event.stopPropagation();
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            save();
          } else if (event.key === 'Escape') {
            event.preventDefault();
            onCancel();
          }
        }}
        slotProps={{ htmlInput: { maxLength: FACT_MAX_LENGTH } }}
      />
      <Stack direction="row" useFlexGap sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        {extra}
        <Stack direction="row" spacing={1} sx={{ ml: 'auto' }}>
          <Button size="small" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button size="small" variant="contained" onClick={save} disabled={busy || text.trim() === ''}>
            {busy ? 'Saving…' : saveLabel}
          </Button>
        </Stack>
      </Stack>
    </Stack>
  );
}
