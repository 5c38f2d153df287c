import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import { useDispatch } from 'react-redux';
import { Link as RouterLink } from 'react-router';
import { useRefreshAfterImport, type RelatedRef, type ResourceRecord } from '../../api/resources';
import { logout, selectToken, useSessionSelector } from '../../lib/session';
import { RAW_DATA_PATH, uploadRawDataFile, type UploadHandle } from './rawdata.api';
import { fileSize } from './format';
import { itemEditPath } from './rawdata.view';

export interface Upload {
  key: number;
  name: string;
  size: number;
  sent: number;
  state: 'uploading' | 'saved' | 'failed' | 'cancelled';
  item?: ResourceRecord;
  message?: string;
}

let nextKey = 1;

/**
 * Uploads of files to raw data, one request per file so each has its own progress and can be
 * cancelled alone. `fields` are the item's fields at the moment the files are dropped (the bucket).
 */
export function useFileUploads() {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const handles = useRef(new Map<number, UploadHandle>());
  const token = useSessionSelector(selectToken);
  const dispatch = useDispatch();
  const refresh = useRefreshAfterImport();

  // Leaving the page cancels what is still on its way (nothing half-sent is kept by the server).
  useEffect(() => {
    const open = handles.current;
    return () => open.forEach((handle) => handle.cancel());
  }, []);

  const change = (key: number, patch: Partial<Upload>) =>
    setUploads((previous) => previous.map((upload) => (upload.key === key ? { ...upload, ...patch } : upload)));

  const start = useCallback(
    (files: File[], fields: Record<string, string>) => {
      const started = files.map((file) => ({ file, key: nextKey++ }));
      setUploads((previous) => [
        ...started.map(({ file, key }): Upload => ({ key, name: file.name, size: file.size, sent: 0, state: 'uploading' })),
        ...previous,
      ]);
      for (const { file, key } of started) {
        const handle = uploadRawDataFile({
          method: 'POST',
          file,
          fields,
          token,
          onProgress: (sent) => change(key, { sent }),
          onUnauthorized: () => dispatch(logout('expired')),
        });
        handles.current.set(key, handle);
        void handle.done.then((outcome) => {
          handles.current.delete(key);
          if (outcome.state === 'saved') {
            change(key, { state: 'saved', sent: file.size, item: outcome.item });
            refresh(RAW_DATA_PATH);
          } else if (outcome.state === 'failed') {
            change(key, { state: 'failed', message: outcome.message });
          } else {
            change(key, { state: 'cancelled' });
          }
        });
      }
    },
    [token, dispatch, refresh],
  );

  const cancel = useCallback((key: number) => handles.current.get(key)?.cancel(), []);
  const clearFinished = useCallback(() => setUploads((previous) => previous.filter((upload) => upload.state === 'uploading')), []);
  return { uploads, start, cancel, clearFinished };
}

/** A drop zone that is also a button opening the file chooser (keyboard and touch users). */
export function FileDropZone({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0 && !disabled) onFiles(files);
  };
  return (
    <Paper
      variant="outlined"
      data-testid="drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      sx={{
        p: 4,
        borderStyle: 'dashed',
        borderWidth: 2,
        borderColor: over ? 'primary.main' : 'divider',
        bgcolor: over ? 'action.hover' : 'background.paper',
        textAlign: 'center',
      }}
    >
      <CloudUploadOutlinedIcon color="primary" sx={{ fontSize: 48 }} />
      <Typography sx={{ fontWeight: 600 }}>Drop files here</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Each file becomes its own item; the same file twice is flagged as a duplicate.
      </Typography>
      <Button variant="outlined" disabled={disabled} onClick={() => input.current?.click()}>
        Choose files
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label="Files to collect"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
    </Paper>
  );
}

const STATE_TEXT: Record<Upload['state'], string> = { uploading: 'Uploading', saved: 'Saved', failed: 'Failed', cancelled: 'Cancelled' };

/** One line per upload: its progress bar, how it ended, a cancel button while it runs. */
export function UploadList({ uploads, onCancel, onClear }: { uploads: Upload[]; onCancel: (key: number) => void; onClear: () => void }) {
  if (uploads.length === 0) return null;
  const finished = uploads.some((upload) => upload.state !== 'uploading');
  return (
    <Paper variant="outlined" sx={{ p: 2 }} role="region" aria-label="Uploads">
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" component="h2" sx={{ fontWeight: 600, mr: 'auto' }}>
          Uploads
        </Typography>
        {finished && (
          <Button size="small" onClick={onClear}>
            Clear finished
          </Button>
        )}
      </Stack>
      <Stack spacing={2}>
        {uploads.map((upload) => (
          <UploadRow key={upload.key} upload={upload} onCancel={() => onCancel(upload.key)} />
        ))}
      </Stack>
    </Paper>
  );
}

function UploadRow({ upload, onCancel }: { upload: Upload; onCancel: () => void }) {
  const percent = upload.state === 'saved' ? 100 : upload.size === 0 ? 0 : Math.min(100, Math.round((upload.sent / upload.size) * 100));
  const duplicate = upload.item?.['duplicate_of'] as RelatedRef | null | undefined;
  const color = upload.state === 'failed' ? 'error' : upload.state === 'cancelled' ? 'inherit' : upload.state === 'saved' ? 'success' : 'primary';
  return (
    <Box data-testid="upload-row" data-state={upload.state}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere', minWidth: 0 }}>
          {upload.item ? (
            <Link component={RouterLink} to={itemEditPath(upload.item.id)}>
              {upload.name}
            </Link>
          ) : (
            upload.name
          )}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
          {fileSize(upload.size)}
        </Typography>
        <Typography variant="body2" sx={{ ml: 'auto !important', whiteSpace: 'nowrap' }} data-testid="upload-state">
          {upload.state === 'uploading' ? `${STATE_TEXT.uploading} ${percent}%` : STATE_TEXT[upload.state]}
        </Typography>
        {upload.state === 'uploading' && (
          <Tooltip title="Cancel this upload">
            <IconButton size="small" aria-label={`Cancel ${upload.name}`} onClick={onCancel}>
              <CloseIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </Stack>
      <LinearProgress
        variant="determinate"
        value={percent}
        color={color}
        aria-label={`Upload of ${upload.name}`}
        sx={{ mt: 0.5, height: 8, borderRadius: 1 }}
      />
      {upload.state === 'failed' && (
        <Typography variant="body2" color="error" sx={{ mt: 0.5 }}>
          {upload.message}
        </Typography>
      )}
      {duplicate && (
        <Alert severity="warning" sx={{ mt: 1 }} data-testid="duplicate-warning">
          Already collected: this file is the same as{' '}
          <Link component={RouterLink} to={itemEditPath(duplicate.id)} sx={{ fontWeight: 600 }}>
            {duplicate.display_name ?? 'the first item'}
          </Link>
          . It was saved and flagged as a duplicate.
        </Alert>
      )}
    </Box>
  );
}
