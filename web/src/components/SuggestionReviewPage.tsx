import { useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import MergeIcon from '@mui/icons-material/CallMerge';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage } from '../api/api-error';
import { useGetResourceQuery, useListResourceQuery } from '../api/resources';
import { mentionCount, sourceCount, useSimilarRecordsQuery, type Suggestion, type SuggestionProvenance } from '../api/review';
import { EntityForm, type EntityFormHandle } from './EntityForm';
import { formatDateTime } from './field-format';
import { KeyboardHint, useShortcutKeys, type Shortcut } from './KeyboardShortcuts';
import { highlightParts, mentionRanges, reportedRange, withReported } from './mention-highlight';
import { recordName, recordPath, type ResourceView } from './resource-view';
import { ResourceMetaGate } from './ResourceMetaGate';
import { RecordHeader } from './RecordHeader';
import { StatusMessage } from './StatusMessage';
import { confidenceText, reviewPathFromList, suggestionsMetaOf, SUGGESTIONS_TAB, useSuggestionsListState } from './SuggestionsTab';
import { listParams } from './use-list-url-state';
import { useReviewActions } from './use-review-actions';

const PAGE_SHORTCUTS: Shortcut[] = [
  { key: 'a', does: 'accept as a new record' },
  { key: 'r', does: 'reject' },
  { key: 'j', label: 'j / k', does: 'next / previous suggestion' },
];

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

/** Where a source lives in the app, for the kinds it has pages for. */
function sourceLink(entry: SuggestionProvenance): { to: string; label: string } | null {
  if (entry.source_kind === 'raw_data' && entry.source_id) return { to: `/rawdata/${encodeURIComponent(entry.source_id)}/edit`, label: 'Open the raw data item' };
  return null;
}

/** One place the suggestion was found: the snippet with its names marked, and its source. */
function ProvenanceEntry({ entry, names }: { entry: SuggestionProvenance; names: string[] }) {
  const ranges = withReported(mentionRanges(entry.snippet, names), reportedRange(entry));
  const link = sourceLink(entry);
  return (
    <Paper variant="outlined" component="li" data-testid="provenance" sx={{ p: 2, listStyle: 'none' }}>
      {entry.snippet ? (
        <Typography
          component="blockquote"
          sx={{
            m: 0,
            pl: 1.5,
            borderLeft: 3,
            borderColor: 'divider',
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            '& mark': { bgcolor: 'warning.light', color: 'text.primary', px: 0.25, borderRadius: 0.5, fontWeight: 600 },
          }}
        >
          {highlightParts(entry.snippet, ranges).map((part, index) => (part.mention ? <mark key={index}>{part.text}</mark> : part.text))}
        </Typography>
      ) : (
        <Typography color="text.secondary">No text around the mention was kept.</Typography>
      )}
      {entry.snippet && ranges.length === 0 && entry.start_offset !== null && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          The name is not in this excerpt as it reads now; the mention is at characters {entry.start_offset.toLocaleString('en-GB')}
          {entry.end_offset !== null && `–${entry.end_offset.toLocaleString('en-GB')}`} of the source.
        </Typography>
      )}
      <Stack direction="row" useFlexGap sx={{ mt: 1.5, gap: 1.5, flexWrap: 'wrap', alignItems: 'baseline' }}>
        {link ? (
          <Link component={RouterLink} to={link.to} variant="body2" sx={{ fontWeight: 600 }}>
            {link.label}
          </Link>
        ) : (
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            Source: {entry.source_kind.replace(/_/g, ' ')}
          </Typography>
        )}
        <Typography variant="body2" color="text.secondary">
          {plural(entry.mention_count, 'mention', 'mentions')} · found {formatDateTime(entry.created_at)}
        </Typography>
      </Stack>
    </Paper>
  );
}

/** The records the suggestion resembles (quick search on its name), each offered as where to fold it in. */
function SimilarRecords({ meta, view, suggestion, busy, onAcceptInto }: {
  meta: ResourceMeta;
  view: ResourceView;
  suggestion: Suggestion;
  busy: boolean;
  onAcceptInto: (id: string, name: string) => void;
}) {
  const name = suggestion.display_name?.trim() ?? '';
  const similar = useSimilarRecordsQuery({ type: meta.type, name }, { skip: name === '' });
  const noun = meta.label.toLowerCase();
  const results = (similar.data ?? []).filter((result) => result.id !== suggestion.id);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="similar-heading" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="similar-heading" variant="h6" component="h2" sx={{ fontWeight: 700 }}>
        Existing records it resembles
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Accepting into a record merges the suggestion into it: the record keeps its values and gains the ones it lacks, with the provenance.
      </Typography>
      {similar.isFetching && <LinearProgress aria-label="Looking for similar records" />}
      {similar.error && <Alert severity="error">{apiErrorMessage(similar.error)}</Alert>}
      {!similar.isFetching && !similar.error && results.length === 0 && (
        <Typography color="text.secondary">No existing {noun} has a similar name.</Typography>
      )}
      {results.length > 0 && (
        <List disablePadding data-testid="similar-records">
          {results.map((result) => (
            <ListItem key={result.id} disableGutters divider sx={{ gap: 2, flexWrap: 'wrap' }}>
              <Link component={RouterLink} to={recordPath(view, result.id)} target="_blank" rel="noopener" sx={{ fontWeight: 600, flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                {result.display_name ?? `Unnamed ${noun}`}
              </Link>
              <Button
                size="small"
                variant="outlined"
                startIcon={<MergeIcon />}
                disabled={busy}
                onClick={() => onAcceptInto(result.id, result.display_name ?? '')}
                aria-label={`Accept into ${result.display_name ?? `this ${noun}`}`}
              >
                Accept into this record
              </Button>
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}

function Review({ meta, view, id }: { meta: ResourceMeta; view: ResourceView; id: string }) {
  const suggestionsMeta = useMemo(() => suggestionsMetaOf(meta), [meta]);
  const path = suggestionsMeta.path;
  const location = useLocation();
  const navigate = useNavigate();
  const form = useRef<EntityFormHandle>(null);
  const { decideOne, busy } = useReviewActions(meta);
  const noun = `suggested ${meta.label.toLowerCase()}`;

  // The suggestion as the server has it now; kept while later refetches come in (the form starts from it).
  const { data, error, isFetching, refetch } = useGetResourceQuery({ path, id }, { refetchOnMountOrArgChange: true });
  const [suggestion, setSuggestion] = useState<Suggestion | null>(null);
  if (suggestion === null && data && !isFetching) setSuggestion(data);

  // The list this page was opened from (its search, ordering and page are in this page's URL): "next" follows it.
  const { state } = useSuggestionsListState(meta);
  const params = useMemo(() => listParams(state), [state]);
  const rows = useListResourceQuery({ path, params }).currentData?.results ?? [];
  const index = rows.findIndex((row) => row.id === id);
  const next = index >= 0 ? rows[index + 1] : rows.find((row) => row.id !== id);
  const previous = index > 0 ? rows[index - 1] : undefined;
  const listQuery = new URLSearchParams(location.search);
  listQuery.set('tab', SUGGESTIONS_TAB);
  const backTo = `${view.basePath}?${listQuery.toString()}`;
  const open = (row: { id: string }) => void navigate(reviewPathFromList(meta, row.id, location.search));
  /** After a decision: the next suggestion of the list, or the list when none is left on its page. */
  const goOn = () => (next ? open(next) : void navigate(backTo));

  const accept = async (linkTo: string | null) => {
    if (!suggestion || busy) return;
    // Edit then accept: the changes are saved first (PATCH), and nothing is accepted if they cannot be.
    const saved = await form.current?.saveChanges();
    if (saved === null) return;
    if (await decideOne('accept', saved ?? suggestion, linkTo)) goOn();
  };
  const reject = async () => {
    if (!suggestion || busy) return;
    if (await decideOne('reject', suggestion)) {
      form.current?.release();
      goOn();
    }
  };

  useShortcutKeys({
    a: () => void accept(null),
    r: () => void reject(),
    j: () => (next ? open(next) : false),
    k: () => (previous ? open(previous) : false),
  });

  if (suggestion === null) {
    if (!error || isFetching) return <LinearProgress aria-label={`Loading the ${noun}`} />;
    if ('status' in error && error.status === 404) {
      return (
        <StatusMessage
          title="Nothing to review here"
          actions={
            <>
              {next && (
                <Button variant="contained" onClick={() => open(next)}>
                  Next suggestion
                </Button>
              )}
              <Button variant={next ? 'outlined' : 'contained'} component={RouterLink} to={backTo}>
                Back to suggestions
              </Button>
            </>
          }
        >
          <Typography color="text.secondary">This {noun} was accepted, rejected or deleted, or never existed.</Typography>
        </StatusMessage>
      );
    }
    return (
      <Alert severity="error" action={<Button color="inherit" size="small" onClick={() => refetch()}>Retry</Button>}>
        {apiErrorMessage(error)}
      </Alert>
    );
  }

  const provenance = suggestion.provenance ?? [];
  const names = [suggestion.display_name ?? '', ...meta.name_fields.map((name) => suggestion[name]).filter((value): value is string => typeof value === 'string')];
  const mentions = mentionCount(suggestion);
  const sources = sourceCount(suggestion);
  const confidence = confidenceText(suggestion['confidence']);
  return (
    <Stack spacing={3}>
      <RecordHeader
        back={{ to: backTo, label: 'Back to suggestions' }}
        title={recordName(meta, suggestion)}
        kindLabel={[
          `Suggested ${meta.label.toLowerCase()}`,
          confidence ? `${confidence} confidence` : null,
          `${plural(mentions, 'mention', 'mentions')} in ${plural(sources, 'source', 'sources')}`,
        ].filter(Boolean).join(' · ')}
        visibility={suggestion['visibility']}
        actions={
          <>
            <Button variant="contained" startIcon={<CheckIcon />} disabled={busy} onClick={() => void accept(null)}>
              Accept as new {meta.label.toLowerCase()}
            </Button>
            <Button variant="outlined" color="error" startIcon={<CloseIcon />} disabled={busy} onClick={() => void reject()}>
              Reject
            </Button>
          </>
        }
      />
      <KeyboardHint shortcuts={PAGE_SHORTCUTS} label="Keyboard shortcuts of the review page" />
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          alignItems: 'start',
          // Side by side on wide screens; on narrow ones the similar records come before the long form.
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' },
          gridTemplateAreas: { xs: '"found" "similar" "form"', lg: '"found similar" "form similar"' },
          gridTemplateRows: { lg: 'auto 1fr' },
        }}
      >
        <Paper variant="outlined" component="section" aria-labelledby="provenance-heading" sx={{ gridArea: 'found', minWidth: 0, p: { xs: 2, sm: 3 } }}>
          <Typography id="provenance-heading" variant="h6" component="h2" sx={{ fontWeight: 700, mb: 1.5 }}>
            Where it was found
          </Typography>
          {provenance.length === 0 ? (
            <Typography color="text.secondary">No source was recorded for this suggestion.</Typography>
          ) : (
            <Stack component="ul" spacing={1.5} sx={{ m: 0, p: 0 }}>
              {provenance.map((entry) => (
                <ProvenanceEntry key={entry.id} entry={entry} names={names} />
              ))}
            </Stack>
          )}
        </Paper>
        <Box sx={{ gridArea: 'similar', minWidth: 0 }}>
          <SimilarRecords meta={meta} view={view} suggestion={suggestion} busy={busy} onAcceptInto={(target) => void accept(target)} />
        </Box>
        <Box sx={{ gridArea: 'form', minWidth: 0 }}>
          <EntityForm
            // A save replaces the starting point: the form starts again from the saved suggestion.
            key={String(suggestion['updated_at'] ?? suggestion.id)}
            meta={meta}
            view={view}
            record={suggestion}
            savePath={path}
            handle={form}
            onSaved={(saved) => setSuggestion(saved)}
            onCancel={() => navigate(backTo)}
          />
        </Box>
      </Box>
    </Stack>
  );
}

/**
 * suggested-entities/{segment}/:id/edit (SPEC §2): one suggestion beside where it was found (its
 * snippets, the mention marked, each linked to its source) and the existing records it resembles.
 * Its fields are edited in the usual form; Accept saves the edits, then accepts (as a new record,
 * or into one of the similar records); Reject rejects. Then the next suggestion of the list opens.
 */
export function SuggestionReviewPage({ view }: { view: ResourceView }) {
  const { id = '' } = useParams();
  return <ResourceMetaGate kind={view.kind}>{(meta) => <Review key={id} meta={meta} view={view} id={id} />}</ResourceMetaGate>;
}
