import { useMemo, useRef, useState, type FormEvent } from 'react';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TablePagination from '@mui/material/TablePagination';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router';
import type { FieldMeta, ResourceMeta } from '@intelnotes/server/contracts';
import { useAvailableFiltersQuery, useListResourceQuery, useResourcesMetaQuery } from '../../api/resources';
import { formatTotal } from '../../components/field-format';
import { ListFilters } from '../../components/ListFilters';
import { atLeast, fieldLabel, useAccessLevel } from '../../components/resource-view';
import { RetryAlert } from '../../components/RetryAlert';
import { searchWords } from '../../components/search-highlight';
import { listParams, PAGE_SIZES, useListUrlState } from '../../components/use-list-url-state';
import { useResourceView } from '../../lib/resource-views';
import { SearchHit } from './SearchHit';
import { SEARCH_TYPES, searchTypeOf, searchView, type SearchType } from './search-types';
import { useSearchCountsQuery } from './search.api';

/** The list ordering that ranks a search's hits by where they match (names first); the default here. */
const RELEVANCE = 'relevance';

/**
 * /search (tab 0), the advanced search. Everything is in the URL — `q`, the result `type`, its
 * filters, `ordering`, `page` and `page_size` — so a search is shared by its link and back and
 * forward step through it. Each result type (search-types.ts) is one resource's list with
 * `search=q`: one request with `limit=1` counts its hits for the chip, and the selected type
 * shows its hits a page at a time, with that resource's filters (available-filters/) and
 * orderings. Without a `type`, the first type with hits is shown.
 */
export function AdvancedSearch() {
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const meta = useResourcesMetaQuery();
  const access = useAccessLevel();
  // Types the reader may read at all (a resource's read_access), in the chips' order.
  const types = useMemo(
    () =>
      SEARCH_TYPES.flatMap((type) => {
        const found = meta.data?.find((entry) => entry.kind === type.kind);
        return found && atLeast(access, found.read_access) ? [{ type, meta: found }] : [];
      }),
    [meta.data, access],
  );

  const search = (next: string) => setParams(next === '' ? {} : { q: next });

  return (
    <>
      {/* Keyed by the query so the box shows it again after back/forward navigation. */}
      <SearchBox key={q} q={q} onSearch={search} />
      {q === '' ? (
        <Typography color="text.secondary">Type words to look for and press Enter: every type of record is searched.</Typography>
      ) : meta.isError ? (
        <RetryAlert onRetry={() => meta.refetch()}>Could not search. Please try again later.</RetryAlert>
      ) : meta.isLoading ? (
        <LinearProgress aria-label="Searching" />
      ) : (
        <Results q={q} types={types} />
      )}
    </>
  );
}

function SearchBox({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(q);
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <Box component="form" role="search" onSubmit={handleSubmit} sx={{ display: 'flex', gap: 1.5, mb: 2.5, flexWrap: 'wrap' }}>
      <TextField
        label="Search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 200, enterKeyHint: 'search' } }}
        sx={{ flex: '1 1 260px', bgcolor: 'background.paper' }}
      />
      <Button type="submit" variant="contained" startIcon={<SearchIcon />} sx={{ minHeight: 56 }}>
        Search
      </Button>
    </Box>
  );
}

interface TypeWithMeta {
  type: SearchType;
  meta: ResourceMeta;
}

function Results({ q, types }: { q: string; types: TypeWithMeta[] }) {
  const [params, setParams] = useSearchParams();
  const paths = useMemo(() => types.map((entry) => entry.meta.path), [types]);
  const counts = useSearchCountsQuery({ q, paths }, { skip: paths.length === 0 });
  const countOf = (entry: TypeWithMeta) => counts.currentData?.[entry.meta.path];

  const asked = searchTypeOf(params.get('type'));
  const chosen = types.find((entry) => entry.type === asked) ?? types.find((entry) => (countOf(entry)?.count ?? 0) > 0);
  // A type starts from its first page, its own filters and the relevance order.
  const select = (type: SearchType) => setParams({ q, type: type.key });
  const noHits = counts.currentData !== undefined && types.every((entry) => (countOf(entry)?.count ?? 0) === 0);

  return (
    <Stack spacing={2.5}>
      <Box role="group" aria-label="Result types" sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {types.map((entry) => {
          const count = countOf(entry);
          const active = chosen === entry;
          return (
            <Chip
              key={entry.type.key}
              data-testid={`search-type-${entry.type.key}`}
              clickable
              onClick={() => select(entry.type)}
              aria-pressed={active}
              color={active ? 'primary' : 'default'}
              variant={active ? 'filled' : 'outlined'}
              label={
                <Box component="span" sx={{ display: 'inline-flex', gap: 0.75, alignItems: 'baseline' }}>
                  <span>{entry.type.label}</span>
                  <Box component="span" data-testid="search-type-count" sx={{ fontWeight: 700, opacity: count?.count === 0 && !active ? 0.6 : 1 }}>
                    {counts.isFetching || counts.isLoading ? (
                      <Skeleton variant="text" width={16} sx={{ display: 'inline-block' }} />
                    ) : count ? (
                      formatTotal(count.count, count.estimate)
                    ) : (
                      '–'
                    )}
                  </Box>
                </Box>
              }
              sx={{ fontWeight: 600, bgcolor: active ? undefined : 'background.paper' }}
            />
          );
        })}
      </Box>

      {counts.isError && <RetryAlert onRetry={() => void counts.refetch()}>Could not search. Please try again later.</RetryAlert>}
      {noHits && !asked && (
        <Typography role="status" color="text.secondary">
          No results found.
        </Typography>
      )}
      {!chosen && counts.isFetching && <LinearProgress aria-label="Searching" />}
      {chosen && <TypeResults key={chosen.type.key} q={q} entry={chosen} />}
    </Stack>
  );
}

/** How the orderings of a field read, by its kind. */
function orderingWords(field: FieldMeta | undefined): [string, string] {
  switch (field?.kind) {
    case 'date':
    case 'incomplete_date':
    case 'datetime':
      return ['oldest first', 'newest first'];
    case 'integer':
    case 'decimal':
      return ['lowest first', 'highest first'];
    default:
      return ['A to Z', 'Z to A'];
  }
}

/** The selected type's hits: its filters and ordering, a page of hits, paging. */
function TypeResults({ q, entry }: { q: string; entry: TypeWithMeta }) {
  const { type, meta } = entry;
  const resourceView = useResourceView(type.kind);
  const view = useMemo(() => searchView(type, resourceView), [type, resourceView]);
  const access = useAccessLevel();
  const { state, update } = useListUrlState(meta);
  const request = useMemo(() => ({ ...listParams(state), search: q, ordering: state.ordering || RELEVANCE }), [state, q]);
  const list = useListResourceQuery({ path: meta.path, params: request });
  const filters = useAvailableFiltersQuery(meta.path);
  const top = useRef<HTMLDivElement>(null);
  const page = list.currentData;
  // The words typed, and those like them a forgiven search matched (the answer names them).
  const similar = page?.similar_words;
  const words = useMemo(() => searchWords(q, similar), [q, similar]);
  const filtered = Object.keys(state.filters).length > 0;

  const orderings = meta.ordering.flatMap((name) => {
    const field = meta.fields.find((candidate) => candidate.name === name);
    const label = fieldLabel(view, name);
    const [up, down] = orderingWords(field);
    return [
      { value: name, label: `${label}, ${up}` },
      { value: `-${name}`, label: `${label}, ${down}` },
    ];
  });
  const ordering = orderings.some((option) => option.value === state.ordering) ? state.ordering : '';

  const turnPage = (patch: { page?: number; pageSize?: number }) => {
    update(patch);
    top.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="search-results-heading" ref={top} sx={{ scrollMarginTop: 80 }}>
      <Stack spacing={2} sx={{ p: { xs: 1.5, sm: 2.5 }, pb: { xs: 1.5, sm: 2 } }}>
        <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1.5, flexWrap: 'wrap' }}>
          <Typography id="search-results-heading" variant="h6" component="h2" sx={{ fontWeight: 700 }}>
            {type.label === 'List' ? 'Lists' : type.label}
          </Typography>
          {page && (
            <Typography color="text.secondary" role="status" data-testid="search-results-total">
              {page.count === 0
                ? 'No results found.'
                : page.search_includes_similar
                  // Nothing matched as typed: the server searched the words like those typed (typos).
                  ? `No exact matches for “${q}”. ${formatTotal(page.count, page.count_is_estimate)} ${page.count === 1 ? 'result' : 'results'} for similar words`
                  : `${formatTotal(page.count, page.count_is_estimate)} ${page.count === 1 ? 'result' : 'results'} for “${q}”`}
            </Typography>
          )}
        </Box>
        <Stack direction={{ xs: 'column', sm: 'row' }} useFlexGap sx={{ gap: 1.5, flexWrap: 'wrap', alignItems: { xs: 'stretch', sm: 'center' } }}>
          <TextField
            select
            size="small"
            label="Order by"
            value={ordering}
            onChange={(event) => update({ ordering: event.target.value })}
            sx={{ minWidth: 220, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">Relevance</MenuItem>
            {orderings.map((option) => (
              <MenuItem key={option.value} value={option.value}>
                {option.label}
              </MenuItem>
            ))}
          </TextField>
          <ListFilters meta={meta} view={view} available={filters.data?.filters ?? []} selected={state.filters} onChange={(next) => update({ filters: next })} />
        </Stack>
      </Stack>
      {list.isFetching && <LinearProgress aria-label="Loading results" sx={{ height: 2 }} />}
      {list.isError && (
        <Box sx={{ px: { xs: 1.5, sm: 2.5 }, pb: 2 }}>
          <RetryAlert onRetry={() => list.refetch()}>Could not search. Please try again later.</RetryAlert>
        </Box>
      )}
      {page && page.results.length > 0 && (
        <Box component="ol" aria-label={`${type.label} results`} sx={{ listStyle: 'none', m: 0, p: 0, borderTop: 1, borderColor: 'divider' }}>
          {page.results.map((record) => (
            <SearchHit key={record.id} type={type} view={view} meta={meta} record={record} words={words} showVisibility={access !== 'public'} />
          ))}
        </Box>
      )}
      {page && page.results.length === 0 && (
        <Box sx={{ px: { xs: 1.5, sm: 2.5 }, pb: 2.5 }}>
          <Alert severity="info" role="status">
            No results found.{filtered ? ' Clear the filters to see more.' : ''}
          </Alert>
        </Box>
      )}
      {page && page.count > 0 && (
        <TablePagination
          component="div"
          count={page.count}
          page={state.page}
          rowsPerPage={state.pageSize}
          rowsPerPageOptions={[...PAGE_SIZES]}
          onPageChange={(_event, next) => turnPage({ page: next })}
          onRowsPerPageChange={(event) => turnPage({ pageSize: Number(event.target.value), page: 0 })}
          labelDisplayedRows={({ from, to, count }) => `${from}–${to} of ${formatTotal(count, page.count_is_estimate)}`}
          sx={{
            borderTop: 1,
            borderColor: 'divider',
            // On a phone the controls wrap instead of running off the right edge.
            '& .MuiTablePagination-toolbar': { flexWrap: 'wrap', justifyContent: 'flex-end', px: { xs: 1, sm: 2 } },
            '& .MuiTablePagination-spacer': { display: { xs: 'none', sm: 'block' } },
          }}
        />
      )}
    </Paper>
  );
}
