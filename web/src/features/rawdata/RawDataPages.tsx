import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import { Link as RouterLink, Navigate, useParams } from 'react-router';
import { apiErrorMessage, apiFieldErrors, type ApiError } from '../../api/api-error';
import { useGetResourceQuery, type RelatedRef, type ResourceRecord } from '../../api/resources';
import { DetailItem, DetailList } from '../../components/DetailList';
import { notify } from '../../components/notify';
import { PanelSection } from '../../components/PanelSection';
import { ResourceCreatePage, ResourceEditPage } from '../../components/ResourceFormPage';
import { fileSize } from './format';
import { ProcessingSection } from './ProcessingSection';
import { RAW_DATA_PATH, useAssignSourceUrlMutation, useClearSourceMutation, useDownloadRawDataFileMutation } from './rawdata.api';
import { bucketEditPath, bucketsView, itemEditPath, rawDataEditView, rawDataView } from './rawdata.view';

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

function FileSection({ record }: { record: ResourceRecord }) {
  const [download, downloadState] = useDownloadRawDataFileMutation();
  const name = str(record['file_name']);
  const duplicate = record['duplicate_of'] as RelatedRef | null;
  if (!name) {
    return <Typography color="text.secondary">No file: this item is pasted text.</Typography>;
  }
  const save = async () => {
    try {
      await download({ id: record.id, fallbackName: name }).unwrap();
    } catch (error) {
      notify.error(`Download failed: ${apiErrorMessage(error as ApiError)}`);
    }
  };
  return (
    <Stack spacing={1.5}>
      <DetailList framed={false}>
        <DetailItem label="File name" name="file_name">{name}</DetailItem>
        <DetailItem label="Type" name="file_type">{str(record['file_type']) ?? 'Unknown'}</DetailItem>
        <DetailItem label="Size" name="file_size">{typeof record['file_size'] === 'number' ? fileSize(record['file_size']) : ''}</DetailItem>
        <DetailItem label="SHA-256" name="file_sha256">
          <Box component="code" sx={{ overflowWrap: 'anywhere', fontSize: '0.85em' }}>{str(record['file_sha256'])}</Box>
        </DetailItem>
      </DetailList>
      <Box>
        <Button variant="outlined" startIcon={<FileDownloadIcon />} onClick={() => void save()} disabled={downloadState.isLoading}>
          {downloadState.isLoading ? 'Downloading…' : 'Download the file'}
        </Button>
      </Box>
      {duplicate && (
        <Alert severity="warning" data-testid="duplicate-of">
          The same file as{' '}
          <Link component={RouterLink} to={itemEditPath(duplicate.id)} sx={{ fontWeight: 600 }}>
            {duplicate.display_name ?? 'the first item'}
          </Link>
          , collected first.
        </Alert>
      )}
    </Stack>
  );
}

/** The item's source: shown, assigned by address (with an alias), or cleared. */
function SourceSection({ record }: { record: ResourceRecord }) {
  const source = record['source'] as RelatedRef | null;
  const [url, setUrl] = useState('');
  const [alias, setAlias] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  /** A field's error from the last answer, as the TextField shows it. */
  const fieldError = (name: string) => ({ error: errors[name] !== undefined, helperText: errors[name]?.[0] });
  const [assign, assignState] = useAssignSourceUrlMutation();
  const [clear, clearState] = useClearSourceMutation();
  const onAssign = async () => {
    try {
      await assign({ id: record.id, url: url.trim(), alias: alias.trim() === '' ? null : alias.trim() }).unwrap();
      setUrl('');
      setAlias('');
      setErrors({});
      notify.success('Source assigned.');
    } catch (error) {
      const fields = apiFieldErrors(error as ApiError);
      setErrors(Object.keys(fields).length > 0 ? fields : { url: [apiErrorMessage(error as ApiError)] });
    }
  };
  const onClear = async () => {
    try {
      await clear(record.id).unwrap();
      notify.success('Source cleared.');
    } catch (error) {
      notify.error(`Clearing the source failed: ${apiErrorMessage(error as ApiError)}`);
    }
  };
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} data-testid="current-source">
        {source ? (
          <>
            <Link component={RouterLink} to={`/urls/${encodeURIComponent(source.id)}`} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {source.display_name}
            </Link>
            <Button size="small" color="error" onClick={() => void onClear()} disabled={clearState.isLoading}>
              Clear source
            </Button>
          </>
        ) : (
          <Typography color="text.secondary">No source yet.</Typography>
        )}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          label="Source URL"
          size="small"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          {...fieldError('url')}
          sx={{ flex: 2 }}
        />
        <TextField
          label="Alias"
          size="small"
          value={alias}
          onChange={(event) => setAlias(event.target.value)}
          {...fieldError('alias')}
          sx={{ flex: 1 }}
        />
        <Button variant="outlined" onClick={() => void onAssign()} disabled={url.trim() === '' || assignState.isLoading}>
          {source ? 'Replace source' : 'Assign source'}
        </Button>
      </Stack>
    </Stack>
  );
}

/** What the server knows of an item beyond its form: the file, its processing and its source (kept current). */
function ItemPanels({ id }: { id: string }) {
  const { data: record } = useGetResourceQuery({ path: RAW_DATA_PATH, id });
  if (!record) return null;
  return (
    <Stack spacing={2}>
      <PanelSection title="File">
        <FileSection record={record} />
      </PanelSection>
      <PanelSection title="Processing">
        <ProcessingSection record={record} />
      </PanelSection>
      <PanelSection title="Source">
        <SourceSection record={record} />
      </PanelSection>
    </Stack>
  );
}

export function RawDataCreatePage() {
  return (
    <ResourceCreatePage
      view={rawDataView}
      renderBeforeFields={() => (
        <Alert severity="info">
          Files are dropped in on the{' '}
          <Link component={RouterLink} to="/rawdata/quick-create">
            quick collection
          </Link>{' '}
          page, several at once; here an item is pasted text.
        </Alert>
      )}
    />
  );
}

export function RawDataEditPage() {
  const { id = '' } = useParams();
  return <ResourceEditPage view={rawDataEditView} renderBeforeFields={() => <ItemPanels id={id} />} />;
}

/** Raw data has no read-only page (SPEC §2): a record's address opens its edit page. */
export function RawDataRecordRedirect() {
  const { id = '' } = useParams();
  return <Navigate to={itemEditPath(id)} replace />;
}

export function BucketCreatePage() {
  return <ResourceCreatePage view={bucketsView} />;
}

export function BucketEditPage() {
  return <ResourceEditPage view={bucketsView} />;
}

export function BucketRecordRedirect() {
  const { id = '' } = useParams();
  return <Navigate to={bucketEditPath(id)} replace />;
}
