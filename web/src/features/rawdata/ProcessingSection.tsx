/**
 * The "Processing" panel of a raw data item (docs/processing.md): where its processing is
 * (status, stage, percent — kept current by the live events), why it failed, the actions
 * (process, send to the library), and what processing found: the text it read and the
 * entities, each linked to the record it names or the suggestion made of it.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { apiErrorMessage, type ApiError } from '../../api/api-error';
import type { ResourceRecord } from '../../api/resources';
import { notify } from '../../components/notify';
import {
  useExportExtractedDataMutation,
  useExtractedDataQuery,
  useExtractedTextQuery,
  useProcessRawDataMutation,
  useSendToLibraryMutation,
  type ExtractedEntity,
} from './rawdata.api';

const STATUS_COLOR: Record<string, 'default' | 'info' | 'success' | 'warning' | 'error'> = { pending: 'default', processing: 'info', completed: 'success', error: 'error' };

/** How entity types are named on screen, in the order they are shown. */
const TYPE_LABELS: Record<ExtractedEntity['type'], string> = {
  ORG: 'Organizations',
  PER: 'People',
  MONEY: 'Amounts',
  DATE: 'Dates',
  GEO: 'Places',
  KEYWORD: 'Keywords',
  EMAIL: 'E-mails',
  PHONE: 'Phones',
  URL: 'Links',
};

/** Text shown before "Show all". */
const TEXT_PREVIEW_CHARS = 3_000;

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Where an entity's record or suggestion opens. */
function entityPath(entity: ExtractedEntity): string | null {
  const record = entity.record;
  if (!record) return null;
  const suggested = !entity.linked && record.status === 'suggested';
  if (record.kind === 'organizations') return suggested ? `/suggested-entities/organizations/${record.id}/edit` : `/organizations/${record.id}`;
  if (record.kind === 'people') return suggested ? `/suggested-entities/people/${record.id}/edit` : `/people/${record.id}`;
  if (record.kind === 'keyword') return `/keywords/${record.id}`;
  return null;
}

function EntityChips({ entities }: { entities: ExtractedEntity[] }) {
  return (
    <Stack direction="row" spacing={0.75} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {entities.map((entity) => {
        const path = entityPath(entity);
        // A record the tenant has: linked, or a suggestion accepted since.
        const isRecord = entity.linked || entity.record?.status === 'active';
        const label = `${entity.text}${entity.mentions > 1 ? ` ×${entity.mentions}` : ''}`;
        const state = entity.record ? (entity.linked ? 'linked' : entity.record.status === 'suggested' ? 'suggested' : entity.record.status ?? '') : '';
        const title = [entity.snippet, state && `(${state}${entity.record?.name ? `: ${entity.record.name}` : ''})`].filter(Boolean).join(' ');
        return path ? (
          <Chip key={`${entity.type}-${entity.normalized}`} label={label} size="small" component={RouterLink} to={path} clickable title={title}
            color={isRecord ? 'primary' : 'default'} variant={isRecord ? 'filled' : 'outlined'} />
        ) : (
          <Chip key={`${entity.type}-${entity.normalized}`} label={label} size="small" variant="outlined" title={title} />
        );
      })}
    </Stack>
  );
}

function FoundEntities({ id }: { id: string }) {
  const { data, isFetching } = useExtractedDataQuery([id]);
  const [exportData, exportState] = useExportExtractedDataMutation();
  if (!data) return isFetching ? <LinearProgress aria-label="Loading what was found" /> : null;
  if (data.results.length === 0) return <Typography color="text.secondary">Nothing was found in this item.</Typography>;
  const byType = (Object.keys(TYPE_LABELS) as ExtractedEntity['type'][])
    .map((type) => ({ type, entities: data.results.filter((entity) => entity.type === type) }))
    .filter((group) => group.entities.length > 0);
  const save = async () => {
    try {
      await exportData([id]).unwrap();
    } catch (error) {
      notify.error(`Export failed: ${apiErrorMessage(error as ApiError)}`);
    }
  };
  return (
    <Stack spacing={1.25} data-testid="found-entities">
      {byType.map(({ type, entities }) => (
        <Box key={type}>
          <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
            {TYPE_LABELS[type]} ({entities.length})
          </Typography>
          <EntityChips entities={entities} />
        </Box>
      ))}
      <Typography variant="body2" color="text.secondary">
        Filled chips open records you have; outlined ones open their suggestion for review.
      </Typography>
      <Box>
        <Button size="small" onClick={() => void save()} disabled={exportState.isLoading}>
          {exportState.isLoading ? 'Exporting…' : 'Export as a spreadsheet'}
        </Button>
      </Box>
    </Stack>
  );
}

function ExtractedText({ id }: { id: string }) {
  const { data } = useExtractedTextQuery(id);
  const [all, setAll] = useState(false);
  if (!data?.text) return null;
  const shown = all ? data.text : data.text.slice(0, TEXT_PREVIEW_CHARS);
  return (
    <Box>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
        Text read ({(data.chars ?? data.text.length).toLocaleString()} characters{data.method ? `, ${data.method}` : ''})
      </Typography>
      <Box component="pre" data-testid="extracted-text"
        sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: 360, overflow: 'auto', m: 0, p: 1.5, bgcolor: 'action.hover', borderRadius: 1, fontSize: '0.85rem' }}>
        {shown}
      </Box>
      {data.text.length > TEXT_PREVIEW_CHARS && (
        <Button size="small" onClick={() => setAll(!all)}>{all ? 'Show less' : 'Show all'}</Button>
      )}
      {data.truncated && <Typography variant="body2" color="text.secondary">Only the beginning of a long text is kept and searched.</Typography>}
    </Box>
  );
}

export function ProcessingSection({ record }: { record: ResourceRecord }) {
  const status = str(record['processing_status']) ?? 'pending';
  const stage = str(record['processing_stage']);
  const error = str(record['processing_error']);
  const percent = typeof record['processing_percent'] === 'number' ? record['processing_percent'] : null;
  const warnings = Array.isArray(record['processing_warnings']) ? record['processing_warnings'].filter((warning): warning is string => typeof warning === 'string') : [];
  const withWarnings = status === 'completed' && warnings.length > 0;
  const [process, processState] = useProcessRawDataMutation();
  const [send, sendState] = useSendToLibraryMutation();
  const [entry, setEntry] = useState<string | null>(null);
  const busy = status === 'processing' || (status === 'pending' && percent === 0);
  const onProcess = async () => {
    try {
      await process([record.id]).unwrap();
      notify.success('Processing queued.');
    } catch (failure) {
      notify.error(`Processing could not start: ${apiErrorMessage(failure as ApiError)}`);
    }
  };
  const onSend = async () => {
    try {
      const { results } = await send([record.id]).unwrap();
      setEntry(results[0]?.library_entry ?? null);
      notify.success(results[0]?.created ? 'Sent to the library.' : 'Its library entry was updated.');
    } catch (failure) {
      notify.error(`Sending to the library failed: ${apiErrorMessage(failure as ApiError)}`);
    }
  };
  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Chip
          label={withWarnings ? 'Completed with warnings' : capitalized(status)}
          color={withWarnings ? 'warning' : (STATUS_COLOR[status] ?? 'default')}
          size="small"
          data-testid="processing-status"
        />
        {stage && status === 'processing' && <Typography variant="body2" color="text.secondary">{capitalized(stage)}…</Typography>}
        <Box sx={{ flex: 1 }} />
        <Button variant="outlined" size="small" onClick={() => void onProcess()} disabled={processState.isLoading || busy}>
          {status === 'completed' || status === 'error' ? 'Process again' : 'Process'}
        </Button>
        <Button variant="outlined" size="small" onClick={() => void onSend()} disabled={sendState.isLoading}>
          Send to library
        </Button>
      </Stack>
      {status === 'processing' && (
        <LinearProgress variant={percent === null ? 'indeterminate' : 'determinate'} value={percent ?? 0} aria-label="Processing progress" />
      )}
      {status === 'error' && error && (
        <Alert severity="error">
          {stage ? `Failed while ${stage}: ` : ''}
          {error}
        </Alert>
      )}
      {withWarnings && (
        <Alert severity="warning" data-testid="processing-warnings">
          {warnings.length === 1 ? (
            warnings[0]
          ) : (
            <>
              Not everything was read:
              <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                {warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </Box>
            </>
          )}
        </Alert>
      )}
      {entry && (
        <Alert severity="success">
          <Link component={RouterLink} to={`/library/${entry}`}>Open its library entry</Link>
        </Alert>
      )}
      {status === 'completed' && (
        <>
          <FoundEntities id={record.id} />
          <ExtractedText id={record.id} />
        </>
      )}
    </Stack>
  );
}
