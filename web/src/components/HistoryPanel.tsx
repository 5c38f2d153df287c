import { useId, useMemo, useState } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import HistoryIcon from '@mui/icons-material/History';
import type { AuditEntry, FieldMeta, ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage } from '../api/api-error';
import { useRecordHistoryQuery, useRecordNamesQuery, useResourceMeta, type ResourceRecord } from '../api/resources';
import { formatDateTime } from './field-format';
import { ACTION_LABELS, historyValue, relativeTime, shortened } from './history-format';
import { fieldLabel, type ResourceView } from './resource-view';
import { RetryAlert } from './RetryAlert';
import { VisuallyHidden } from './VisuallyHidden';

/**
 * Changes recorded by extensions rather than by a declared field, with their labels: a record's
 * list memberships (lists extension) and a fact's share links (facts/share).
 */
const EXTENSION_CHANGES: Partial<Record<string, string>> = { lists: 'Lists', share_link: 'Share link' };

const ACTION_COLORS: Record<AuditEntry['action'], 'success' | 'primary' | 'error' | 'secondary' | 'warning'> = {
  create: 'success',
  update: 'primary',
  delete: 'error',
  merge: 'secondary',
  undo_merge: 'warning',
};

interface Change {
  name: string;
  label: string;
  from: string | null;
  to: string | null;
}

/** A value cell: the value cut to a readable length (whole in the tooltip), or a dash. */
/** Who wrote an entry, in words: a person, or the system (and whom it worked for). */
function writerOf(entry: AuditEntry): string {
  if (entry.user_email) return entry.user_email;
  return entry.on_behalf_of ? `the system on behalf of ${entry.on_behalf_of.email ?? 'a user'}` : 'the system';
}

function Value({ value }: { value: string | null }) {
  if (value === null) {
    return (
      <Typography component="span" variant="body2" color="text.secondary">
        <span aria-hidden="true">—</span>
        <VisuallyHidden>Not set</VisuallyHidden>
      </Typography>
    );
  }
  const { text, full } = shortened(value);
  return (
    <Box component="span" title={full ?? undefined} sx={{ overflowWrap: 'break-word' }}>
      {text}
    </Box>
  );
}

function When({ at }: { at: string }) {
  return (
    <Box component="time" dateTime={at} title={formatDateTime(at)}>
      {relativeTime(at)}
      <Typography component="span" variant="body2" color="text.secondary">
        {' '}
        · {formatDateTime(at)}
      </Typography>
    </Box>
  );
}

function ChangesTable({ changes, created }: { changes: Change[]; created: boolean }) {
  return (
    <Table size="small" aria-label="Changed fields" sx={{ '& td, & th': { px: 1, verticalAlign: 'top' }, tableLayout: 'fixed' }}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: { xs: '32%', sm: '22%' } }}>Field</TableCell>
          {created ? <TableCell>Value</TableCell> : <TableCell>Before</TableCell>}
          {!created && (
            <TableCell padding="none" sx={{ width: 28 }}>
              <VisuallyHidden>to</VisuallyHidden>
            </TableCell>
          )}
          {!created && <TableCell>After</TableCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        {changes.map((change) => (
          <TableRow key={change.name} data-change={change.name}>
            <TableCell component="th" scope="row" sx={{ fontWeight: 600, color: 'text.secondary', overflowWrap: 'break-word', hyphens: 'auto' }}>
              {change.label}
            </TableCell>
            {!created && (
              <TableCell sx={{ color: 'text.secondary' }}>
                <Value value={change.from} />
              </TableCell>
            )}
            {!created && (
              <TableCell padding="none" sx={{ pt: 0.75 }} aria-hidden="true">
                <ArrowForwardIcon fontSize="small" color="action" />
              </TableCell>
            )}
            <TableCell>
              <Value value={change.to} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

interface HistoryPanelProps {
  meta: ResourceMeta;
  view: ResourceView;
  record: ResourceRecord;
}

/**
 * A record's audit log for admins (GET {path}/{id}/history/): who created, edited, deleted
 * or merged it, when, and which fields went from what to what. Collapsible; refreshed when
 * the record is saved.
 */
export function HistoryPanel({ meta, view, record }: HistoryPanelProps) {
  const headingId = useId();
  const [expanded, setExpanded] = useState(false);
  // Always asked afresh on opening the page: imports and merges change records too.
  const history = useRecordHistoryQuery({ path: meta.path, id: record.id }, { refetchOnMountOrArgChange: true });
  const entries = history.data?.results;

  const fieldsByName = useMemo(() => new Map(meta.fields.map((field) => [field.name, field])), [meta]);
  // List memberships are recorded as list ids: named from the record's lists, or looked up.
  const currentLists = useMemo(
    () => new Map(((record['lists_as_item'] as Array<{ id: string; name: string }> | undefined) ?? []).map((list) => [list.id, list.name])),
    [record],
  );
  const otherListIds = useMemo(() => {
    const ids = new Set<string>();
    for (const entry of entries ?? []) {
      const change = entry.changes['lists'];
      for (const value of [change?.from, change?.to]) {
        if (!Array.isArray(value)) continue;
        for (const item of value) if (typeof item === 'string' && !currentLists.has(item)) ids.add(item);
      }
    }
    return [...ids].sort();
  }, [entries, currentLists]);
  const listsPath = useResourceMeta('lists').meta?.path ?? '/lists';
  const otherLists = useRecordNamesQuery({ path: listsPath, ids: otherListIds }, { skip: otherListIds.length === 0 }).data;
  const listNames = useMemo(() => {
    const names = new Map(currentLists);
    for (const [id, name] of Object.entries(otherLists ?? {})) names.set(id, name ?? 'a deleted list');
    return names;
  }, [currentLists, otherLists]);

  /** The changes worth showing: declared, readable fields (no flags, JSON or internal ones); for a creation, the values set. */
  const changesOf = (entry: AuditEntry): Change[] => {
    const shown: Change[] = [];
    for (const [name, { from, to }] of Object.entries(entry.changes)) {
      const field: FieldMeta | undefined = fieldsByName.get(name);
      const extension = EXTENSION_CHANGES[name];
      if (!extension && (!field || field.kind === 'object' || view.omit?.includes(name))) continue;
      const before = historyValue(field, from, listNames, name);
      const after = historyValue(field, to, listNames, name);
      if (entry.action === 'create' && (after === null || (field?.kind === 'boolean' && to === false))) continue;
      if (before === after && entry.action !== 'create') continue;
      shown.push({ name, label: extension ?? fieldLabel(view, name), from: before, to: after });
    }
    const order = new Map(meta.fields.map((field, index) => [field.name, index]));
    return shown.sort((a, b) => (order.get(a.name) ?? meta.fields.length) - (order.get(b.name) ?? meta.fields.length));
  };

  const latest = entries?.[0];
  return (
    <Accordion
      variant="outlined"
      disableGutters
      expanded={expanded}
      onChange={(_event, open) => setExpanded(open)}
      slotProps={{ heading: { component: 'h2' } }}
      data-testid="history-panel"
      sx={{ borderRadius: 1, '&::before': { display: 'none' } }}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />} id={headingId} aria-controls={`${headingId}-content`} sx={{ px: { xs: 2, sm: 3 } }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} useFlexGap sx={{ gap: { xs: 0.25, sm: 1.5 }, alignItems: { sm: 'center' }, minWidth: 0 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <HistoryIcon fontSize="small" color="action" />
            <Typography component="span" variant="subtitle1" sx={{ fontWeight: 600 }}>
              History
            </Typography>
          </Stack>
          <Typography component="span" variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {entries
              ? latest
                ? `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'} · ${latest.action === 'create' ? 'created' : `last ${ACTION_LABELS[latest.action].toLowerCase()}`} ${relativeTime(latest.at)} by ${writerOf(latest)}`
                : 'No changes recorded'
              : history.isLoading
                ? 'Loading…'
                : ''}
          </Typography>
        </Stack>
      </AccordionSummary>
      <AccordionDetails id={`${headingId}-content`} sx={{ px: { xs: 2, sm: 3 }, pt: 0, pb: 3 }}>
        {history.isFetching && <LinearProgress aria-label="Loading the history" sx={{ mb: 2 }} />}
        {history.error && !entries && <RetryAlert onRetry={() => history.refetch()}>{apiErrorMessage(history.error)}</RetryAlert>}
        {entries && entries.length === 0 && (
          <Typography color="text.secondary">
            No changes have been recorded for this {meta.label.toLowerCase()}.
          </Typography>
        )}
        {entries && entries.length > 0 && (
          <Stack component="ol" spacing={2.5} sx={{ m: 0, p: 0, listStyle: 'none' }} aria-label={`History of this ${meta.label.toLowerCase()}`}>
            {entries.map((entry) => {
              const changes = changesOf(entry);
              return (
                <Box component="li" key={entry.id} data-testid="history-entry" data-action={entry.action} sx={{ borderLeft: 3, borderColor: `${ACTION_COLORS[entry.action]}.main`, pl: 2 }}>
                  <Stack direction="row" useFlexGap sx={{ gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: changes.length > 0 ? 1 : 0 }}>
                    <Chip size="small" variant="outlined" color={ACTION_COLORS[entry.action]} label={ACTION_LABELS[entry.action]} />
                    <Typography component="span" variant="body2">
                      by <strong>{writerOf(entry)}</strong>
                    </Typography>
                    <Typography component="span" variant="body2">
                      <When at={entry.at} />
                    </Typography>
                  </Stack>
                  {entry.action === 'merge' && (
                    <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                      Another record was merged into this one
                      {entry.undone_at ? `; the merge was undone ${relativeTime(entry.undone_at)} (${formatDateTime(entry.undone_at)}).` : '.'}
                    </Typography>
                  )}
                  {changes.length > 0 ? (
                    <ChangesTable changes={changes} created={entry.action === 'create'} />
                  ) : (
                    entry.action === 'update' && (
                      <Typography variant="body2" color="text.secondary">
                        No visible fields changed.
                      </Typography>
                    )
                  )}
                </Box>
              );
            })}
          </Stack>
        )}
      </AccordionDetails>
    </Accordion>
  );
}
