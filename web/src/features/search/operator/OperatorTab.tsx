import { useCallback, useMemo, useRef, useState, type FormEvent } from 'react';
import AutoAwesomeIcon from '@mui/icons-material/AutoAwesome';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import SortIcon from '@mui/icons-material/Sort';
import TextFieldsIcon from '@mui/icons-material/TextFields';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { OperatorAnswer, OperatorEntity, ResourceMeta, StructuredQueryInput } from '@intelnotes/server/contracts';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { apiErrorMessage, type ApiError } from '../../../api/api-error';
import { useAvailableFiltersQuery } from '../../../api/resources';
import { DataTable } from '../../../components/DataTable';
import { fieldLabel, listPath, type ResourceView } from '../../../components/resource-view';
import { ResourceMetaGate } from '../../../components/ResourceMetaGate';
import type { ListStateControl, ListUrlState } from '../../../components/use-list-url-state';
import { useResourceView } from '../../../lib/resource-views';
import { ConditionChips } from './ConditionChips';
import { withLinkFilters } from './query-fields';
import { useValidateQueryMutation, useNlpToQueryQuery } from './operator.api';
import {
  CONTROL_PARAMS,
  listPagePath,
  MAX_LIMIT,
  orderingFromParam,
  orderingParam,
  subqueryPath,
} from './query-model';
import { ValueDialog } from './ValueDialog';

/** The question box takes what the API does: 1–500 characters. */
const MAX_QUESTION = 500;

/** Questions offered to start from, one per kind of record (each a link that asks it). */
const EXAMPLES = [
  'organizations in Berlin founded after 2015',
  'people tagged fintech without an email',
  'reports from 2023 about lithium',
  'ledger entries in 2024 over $5M, largest first',
];

const ENTITY_NAMES: Record<OperatorEntity, string> = {
  organizations: 'Organizations',
  people: 'People',
  ledger_entries: 'Ledger entries',
  library: 'Library entries',
  lists: 'Lists',
};

const SOURCE_TEXT: Record<OperatorAnswer['source'], string> = {
  parser: 'Read by the built-in parser.',
  llm: 'Read by the language model, checked against the data model.',
  manual: 'Edited by hand.',
};

/**
 * The Operator (/search?tab=1): a question in plain words becomes a structured query (POST
 * ai-assistant/queries/nlp-to-query), shown as chips the reader edits (each edit checked by
 * …/validate) and run as the list call of its kind of record — a normal list, so the reader
 * sees only what they may see. The question lives in the URL (`?tab=1&ask=`), so a link
 * asks it again.
 */
export function OperatorTab() {
  const [params, setParams] = useSearchParams();
  const ask = (params.get('ask') ?? '').trim();
  const onAsk = (question: string) => setParams({ tab: '1', ask: question });
  const [text, setText] = useState(ask);
  const [applied, setApplied] = useState(ask);
  // Back and forward change the question in the URL: the box follows.
  if (ask !== applied) {
    setApplied(ask);
    setText(ask);
  }
  const answer = useNlpToQueryQuery(ask, { skip: ask === '' });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const question = text.trim();
    if (question !== '') onAsk(question);
  };

  return (
    <Stack spacing={3}>
      <Box component="form" role="search" aria-label="Ask the Operator" onSubmit={submit} noValidate>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <TextField
            label="Ask a question"
            placeholder="e.g. organizations in Berlin founded after 2015"
            value={text}
            onChange={(event) => setText(event.target.value)}
            slotProps={{ htmlInput: { maxLength: MAX_QUESTION, enterKeyHint: 'search' } }}
            sx={{ flex: 1, bgcolor: 'background.paper' }}
          />
          <Button type="submit" variant="contained" startIcon={<AutoAwesomeIcon />} disabled={text.trim() === ''} sx={{ minHeight: 56, px: 3 }}>
            Ask
          </Button>
        </Stack>
      </Box>

      {ask === '' && <Examples onAsk={onAsk} />}
      {ask !== '' && answer.isFetching && <LinearProgress aria-label="Reading the question" />}
      {ask !== '' && answer.error && !answer.isFetching && (
        <Alert severity="warning" role="alert">
          {apiErrorMessage(answer.error)}
        </Alert>
      )}
      {ask !== '' && answer.currentData && (
        // Keyed by the question: a new answer starts without the previous one's edits.
        <AnsweredQuery key={ask} initial={answer.currentData} />
      )}
    </Stack>
  );
}

function Examples({ onAsk }: { onAsk: (question: string) => void }) {
  return (
    <Box>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        Ask about organizations, people, ledger entries, library entries or lists in your own words. For example:
      </Typography>
      <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1 }}>
        {EXAMPLES.map((example) => (
          <Chip key={example} label={example} variant="outlined" onClick={() => onAsk(example)} sx={{ bgcolor: 'background.paper' }} />
        ))}
      </Stack>
    </Box>
  );
}

/** An answer: what was understood, the query as chips, and its results; edits are checked by the server. */
function AnsweredQuery({ initial }: { initial: OperatorAnswer }) {
  const [current, setCurrent] = useState(initial);
  const [validate, validation] = useValidateQueryMutation();
  const [editError, setEditError] = useState<string | null>(null);
  const view = useResourceView(current.query.entity);

  // The last query sent, so a control that reports the same change twice asks once.
  const sent = useRef(JSON.stringify(initial.query));
  const edit = useCallback(
    async (query: StructuredQueryInput) => {
      const key = JSON.stringify(query);
      if (key === sent.current) return;
      sent.current = key;
      setEditError(null);
      try {
        setCurrent(await validate(query).unwrap());
      } catch (error) {
        sent.current = '';
        setEditError(apiErrorMessage(error as ApiError));
      }
    },
    [validate],
  );

  return (
    <Stack spacing={3}>
      <Understood answer={current} />
      {!view ? (
        <Alert severity="info">The app cannot show {ENTITY_NAMES[current.query.entity].toLowerCase()} here yet.</Alert>
      ) : (
        <ResourceMetaGate kind={view.kind}>
          {(meta) => (
            <QueryResults
              meta={meta}
              view={view}
              answer={current}
              busy={validation.isLoading}
              error={editError}
              onEdit={edit}
              // A partial answer runs nothing until accepted: the query as understood, checked, becomes the one run.
              onAccept={() => {
                sent.current = '';
                void edit(current.query);
              }}
            />
          )}
        </ResourceMetaGate>
      )}
    </Stack>
  );
}

/** The explanation, the words not used and who read the question. */
function Understood({ answer }: { answer: OperatorAnswer }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby="operator-understood" sx={{ p: { xs: 2, sm: 2.5 } }}>
      <Typography id="operator-understood" variant="overline" component="h2" color="text.secondary" sx={{ lineHeight: 1.5 }}>
        What I understood
      </Typography>
      <Typography variant="body1" sx={{ fontSize: '1.05rem', fontWeight: 500 }} role="status">
        {answer.explanation}
      </Typography>
      {answer.not_understood.length > 0 && (
        <Alert severity="warning" variant="outlined" sx={{ mt: 1.5 }}>
          Not understood, so left out:{' '}
          {answer.not_understood.map((word, index) => (
            <Box component="span" key={`${word}-${index}`}>
              {index > 0 && ', '}
              <Box component="q" sx={{ fontWeight: 600 }}>
                {word}
              </Box>
            </Box>
          ))}
        </Alert>
      )}
      {answer.corrections.length > 0 && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          Read {answer.corrections.map((correction) => `“${correction.written}” as “${correction.read}”`).join(', ')}.
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
        {SOURCE_TEXT[answer.source]}
      </Typography>
    </Paper>
  );
}

interface QueryResultsProps {
  meta: ResourceMeta;
  view: ResourceView;
  answer: OperatorAnswer;
  busy: boolean;
  error: string | null;
  onEdit: (query: StructuredQueryInput) => void;
  onAccept: () => void;
}

/** The query as chips, the links that open it elsewhere, and its rows in the resource's table. */
function QueryResults({ meta, view, answer, busy, error, onEdit, onAccept }: QueryResultsProps) {
  const { query } = answer;
  const filtersQuery = useAvailableFiltersQuery(meta.path);
  // Link filters ("people linked to X") are chips like the relations: named, edited and removed.
  const linked = useMemo(() => withLinkFilters(meta, filtersQuery.data?.filters), [meta, filtersQuery.data]);
  const filters = linked.filters;
  const [dialog, setDialog] = useState<'search' | 'limit' | null>(null);
  const [page, setPage] = useState(0);

  // The table's search, ordering and page size are the query's: changing them edits it.
  const queryRef = useRef(query);
  queryRef.current = query;
  const listState = useMemo<ListStateControl>(() => {
    const state: ListUrlState = { page, pageSize: query.limit, ordering: orderingParam(query.ordering), search: query.search ?? '', filters: {} };
    return {
      state,
      update: (patch) => {
        const current = queryRef.current;
        const next: StructuredQueryInput = {
          ...current,
          ...(patch.search !== undefined ? { search: patch.search.trim() || null } : {}),
          ...(patch.ordering !== undefined ? { ordering: orderingFromParam(patch.ordering) } : {}),
          ...(patch.pageSize !== undefined ? { limit: patch.pageSize } : {}),
        };
        const changed = JSON.stringify(next) !== JSON.stringify(current);
        setPage(changed ? 0 : (patch.page ?? page));
        if (changed) onEdit(next);
      },
    };
  }, [page, query, onEdit]);

  // The conditions go to the list as the server wrote them; search, ordering and paging come from the table.
  const fixedParams = useMemo(
    () => Object.fromEntries(Object.entries(answer.list?.params ?? {}).filter(([name]) => !(CONTROL_PARAMS as readonly string[]).includes(name))),
    [answer.list],
  );
  const tableView = useMemo<ResourceView>(() => ({ ...view, emptyText: 'Nothing matches this query.' }), [view]);
  const otherPath = meta.kind === 'organizations' ? null : listPagePath(query, listPath(view), meta.filters);

  return (
    <Stack spacing={2.5} component="section" aria-labelledby="operator-query">
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ alignItems: { md: 'center' }, justifyContent: 'space-between' }}>
        <Typography id="operator-query" variant="h6" component="h2" sx={{ fontWeight: 700 }}>
          The query
        </Typography>
        {meta.kind === 'organizations' ? (
          <Link component={RouterLink} to={subqueryPath(query)} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, fontWeight: 600 }}>
            Open as organizations subquery <OpenInNewIcon fontSize="small" aria-hidden />
          </Link>
        ) : (
          otherPath && (
            <Link component={RouterLink} to={otherPath} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, fontWeight: 600 }}>
              Open in the list <OpenInNewIcon fontSize="small" aria-hidden />
            </Link>
          )
        )}
      </Stack>
      <ConditionChips
        meta={linked.meta}
        view={view}
        filters={filters}
        conditions={query.conditions}
        disabled={busy}
        onChange={(conditions) => onEdit({ ...query, conditions })}
        before={
          <>
            <Chip role="listitem" label={ENTITY_NAMES[query.entity]} color="primary" sx={{ fontWeight: 700 }} aria-label={`Kind of record: ${ENTITY_NAMES[query.entity]}`} />
            {query.search && (
              <Chip
                role="listitem"
                icon={<TextFieldsIcon />}
                label={`Text: ${query.search}`}
                variant="outlined"
                onClick={() => setDialog('search')}
                onDelete={() => onEdit({ ...query, search: null })}
                disabled={busy}
                aria-label={`Text: ${query.search}: edit, or press Delete to remove`}
                sx={{ bgcolor: 'background.paper' }}
              />
            )}
          </>
        }
        after={
          <>
            {query.ordering.map((term, index) => {
              const label = `Sorted by ${fieldLabel(view, term.field)}, ${term.descending ? 'descending' : 'ascending'}`;
              return (
                <Chip
                  key={term.field}
                  role="listitem"
                  icon={<SortIcon />}
                  label={label}
                  variant="outlined"
                  onClick={() => onEdit({ ...query, ordering: query.ordering.map((entry, at) => (at === index ? { ...entry, descending: !entry.descending } : entry)) })}
                  onDelete={() => onEdit({ ...query, ordering: query.ordering.filter((_entry, at) => at !== index) })}
                  disabled={busy}
                  aria-label={`${label}: reverse, or press Delete to remove`}
                  sx={{ bgcolor: 'background.paper' }}
                />
              );
            })}
            <Chip
              role="listitem"
              label={`${query.limit} per page`}
              variant="outlined"
              onClick={() => setDialog('limit')}
              disabled={busy}
              aria-label={`${query.limit} rows per page: edit`}
              sx={{ bgcolor: 'background.paper' }}
            />
            {!query.search && (
              <Chip role="listitem" icon={<TextFieldsIcon />} label="Add text" variant="outlined" onClick={() => setDialog('search')} disabled={busy} sx={{ borderStyle: 'dashed' }} />
            )}
          </>
        }
      />
      {busy && <LinearProgress aria-label="Checking the query" />}
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      {dialog === 'search' && (
        <ValueDialog
          title="Text to search for"
          label="Words"
          initial={query.search ?? ''}
          helperText="Records whose text holds these words; empty for none."
          problemOf={() => null}
          onClose={() => setDialog(null)}
          onSave={(value) => {
            setDialog(null);
            onEdit({ ...query, search: value || null });
          }}
        />
      )}
      {dialog === 'limit' && (
        <ValueDialog
          title="Rows per page"
          label="Rows"
          initial={String(query.limit)}
          inputMode="numeric"
          maxLength={3}
          helperText={`A whole number from 1 to ${MAX_LIMIT}.`}
          problemOf={(value) => (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_LIMIT ? null : `Give a whole number from 1 to ${MAX_LIMIT}.`)}
          onClose={() => setDialog(null)}
          onSave={(value) => {
            setDialog(null);
            onEdit({ ...query, limit: Number(value) });
          }}
        />
      )}
      {answer.list ? (
        <DataTable meta={meta} view={tableView} listState={listState} fixedParams={fixedParams} filterable={false} spreadsheetUpload={false} />
      ) : (
        <Alert
          severity="info"
          role="status"
          action={
            <Button color="inherit" size="small" onClick={onAccept} disabled={busy}>
              Run without them
            </Button>
          }
        >
          Part of the question was not understood, so nothing was run: the query above would answer more than was asked.
        </Alert>
      )}
    </Stack>
  );
}
