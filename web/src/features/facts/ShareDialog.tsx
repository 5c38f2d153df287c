import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { apiErrorMessage, apiFieldErrors, type ApiError } from '../../api/api-error';
import { notify, truncate } from '../../components/notify';
import { useShareFactMutation, type ShareCodeCreated, type Visibility } from './facts.api';
import { plainText } from './markdown';

/** The address a share code opens, on this tenant's host. */
export const shareUrl = (urlPath: string) => `${window.location.origin}${urlPath}`;

/** Copies text to the clipboard, and says whether it did. */
export async function copyText(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(`${what} copied.`);
  } catch {
    notify.error(`Could not copy the ${what.toLowerCase()}: select it and copy it yourself.`);
  }
}

/** The last moment of a chosen day, in the browser's time zone, as the API takes it. */
const endOfDay = (day: string) => new Date(`${day}T23:59:59`).toISOString();
const today = () => new Date().toLocaleDateString('en-CA');

interface ShareDialogProps {
  fact: { id: string; text: string; visibility: Visibility } | null;
  onClose: () => void;
}

/** Shares a subtree: an optional last day, then the new code's address, to copy. */
export function ShareDialog({ fact, onClose }: ShareDialogProps) {
  const titleId = useId();
  const [until, setUntil] = useState('');
  const [created, setCreated] = useState<ShareCodeCreated | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [share, shareState] = useShareFactMutation();
  const reset = () => {
    setUntil('');
    setCreated(null);
    setError(null);
  };
  const create = async () => {
    if (!fact) return;
    if (until !== '' && until < today()) {
      setError('Choose today or a later day.');
      return;
    }
    try {
      setCreated(await share({ id: fact.id, expires_at: until === '' ? null : endOfDay(until) }).unwrap());
      setError(null);
    } catch (failure) {
      const fields = apiFieldErrors(failure as ApiError);
      setError(fields['expires_at']?.join(' ') ?? apiErrorMessage(failure as ApiError));
    }
  };
  const url = created ? shareUrl(created.url_path) : '';
  return (
    <Dialog open={fact !== null} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" slotProps={{ transition: { onExited: reset } }}>
      <DialogTitle id={titleId}>Share these facts</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText sx={{ overflowWrap: 'anywhere' }}>
            “{truncate(plainText(fact?.text ?? ''), 140)}” and the facts under it. Whoever opens the link sees what their own access allows: visitors see the
            public facts only.
          </DialogContentText>
          {fact && fact.visibility !== 'public' && (
            <Alert severity="warning">
              This fact is {fact.visibility}: visitors who are not signed in will find nothing at the link until it is public.
            </Alert>
          )}
          {created ? (
            <>
              <TextField
                label="Link to share"
                value={url}
                fullWidth
                onFocus={(event) => event.target.select()}
                slotProps={{
                  htmlInput: { readOnly: true, 'data-testid': 'share-url' },
                  input: {
                    endAdornment: (
                      <InputAdornment position="end">
                        <Tooltip title="Copy the link">
                          <IconButton aria-label="Copy the link" edge="end" onClick={() => void copyText(url, 'Link')}>
                            <ContentCopyIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      </InputAdornment>
                    ),
                  },
                }}
              />
              <DialogContentText>
                Code <strong data-testid="share-code">{created.code}</strong>
                {created.expires_at ? `, valid until ${new Date(created.expires_at).toLocaleString('en-GB')}.` : ', valid until revoked.'} It is listed under Share
                codes, where it can be revoked.
              </DialogContentText>
            </>
          ) : (
            <TextField
              label="Valid until (optional)"
              type="date"
              value={until}
              onChange={(event) => setUntil(event.target.value)}
              error={Boolean(error)}
              helperText={error ?? 'Leave empty for a link that works until it is revoked.'}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: today() } }}
              sx={{ maxWidth: 280 }}
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        {created ? (
          <Button variant="contained" onClick={onClose}>
            Done
          </Button>
        ) : (
          <>
            <Button onClick={onClose} disabled={shareState.isLoading}>
              Cancel
            </Button>
            <Button variant="contained" onClick={() => void create()} disabled={shareState.isLoading}>
              {shareState.isLoading ? 'Creating…' : 'Create link'}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
