import { useCallback, useMemo } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/Edit';
import PrintIcon from '@mui/icons-material/Print';
import UnfoldLessIcon from '@mui/icons-material/UnfoldLess';
import UnfoldMoreIcon from '@mui/icons-material/UnfoldMore';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { apiErrorMessage } from '../../api/api-error';
import { PageHeading } from '../../components/PageHeading';
import { RetryAlert } from '../../components/RetryAlert';
import { SearchField } from '../../components/SearchField';
import { selectIsAdmin, useSessionSelector } from '../../lib/session';
import { useFactsReaderQuery, type FactTree, type ReaderFilters, type ReaderSection } from './facts.api';
import { EDITOR_PATH } from './facts.view';
import {
  CollapsingProvider,
  ENTITY_FIELDS,
  factCount,
  FactTreeList,
  parentIds,
  useCollapsing,
  type EntityFilter,
  type EntityParam,
} from './FactTreeView';
import { LOCKED_NOUNS, LockedOffer } from '../../components/LockedOffer';
import { PrintStyles } from './PrintStyles';

const ENTITY_PARAMS = ENTITY_FIELDS.map((entry) => entry.param);

/** Every entity the facts mention, once each, by kind then name: the filter's options. */
function mentionedEntities(sections: ReaderSection[]): EntityFilter[] {
  const seen = new Map<string, EntityFilter>();
  const walk = (facts: FactTree[]) => {
    for (const fact of facts) {
      for (const { field, param } of ENTITY_FIELDS) {
        for (const ref of fact[field] ?? []) seen.set(`${param}:${ref.id}`, { param, id: ref.id, name: ref.display_name ?? 'Unnamed' });
      }
      walk(fact.children);
    }
  };
  for (const section of sections) for (const category of section.categories) walk(category.facts);
  const order = (param: EntityParam) => ENTITY_PARAMS.indexOf(param);
  return [...seen.values()].sort((a, b) => order(a.param) - order(b.param) || a.name.localeCompare(b.name));
}

const kindLabel = (param: EntityParam) => ENTITY_FIELDS.find((entry) => entry.param === param)?.label ?? param;

/** The reader's filters as the URL keeps them (?search=…&keyword=<id>…). */
function useReaderFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo<ReaderFilters>(() => {
    const out: ReaderFilters = {};
    const search = params.get('search')?.trim();
    if (search) out.search = search;
    for (const param of ENTITY_PARAMS) {
      const value = params.get(param);
      if (value) out[param] = value;
    }
    return out;
  }, [params]);
  const setSearch = useCallback(
    (search: string) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        if (search) next.set('search', search);
        else next.delete('search');
        return next;
      }, { replace: true }),
    [setParams],
  );
  const setEntity = useCallback(
    (entity: EntityFilter | null) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        for (const param of ENTITY_PARAMS) next.delete(param);
        if (entity) next.set(entity.param, entity.id);
        return next;
      }),
    [setParams],
  );
  const clear = useCallback(() => setParams(new URLSearchParams(), { replace: true }), [setParams]);
  return { filters, setSearch, setEntity, clear };
}

function SectionBlock({ section, onEntity }: { section: ReaderSection; onEntity: (entity: EntityFilter) => void }) {
  const categories = section.categories.filter((category) => category.facts.length > 0);
  const headingId = `section-${section.id}`;
  return (
    <Box component="section" aria-labelledby={headingId} className="facts-section" data-testid="reader-section">
      <Typography id={headingId} variant="h5" component="h2" sx={{ fontWeight: 700, mb: 0.5, overflowWrap: 'anywhere' }}>
        {section.name}
      </Typography>
      {section.description && (
        <Typography color="text.secondary" sx={{ mb: 1.5, whiteSpace: 'pre-line' }}>
          {section.description}
        </Typography>
      )}
      <Stack spacing={2}>
        {categories.map((category) => (
          <Box key={category.id ?? 'none'} data-testid="reader-category">
            {/* A section's facts without a category need no heading of their own. */}
            {(category.id !== null || categories.length > 1) && (
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, color: 'primary.dark', overflowWrap: 'anywhere' }}>
                {category.name ?? 'Other'}
              </Typography>
            )}
            {category.description && (
              <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5, whiteSpace: 'pre-line' }}>
                {category.description}
              </Typography>
            )}
            <FactTreeList facts={category.facts} onEntity={onEntity} label={category.name === null ? section.name : `${section.name}: ${category.name}`} />
          </Box>
        ))}
      </Stack>
    </Box>
  );
}

/**
 * facts/view — the intelbook reader for every audience: sections, their categories and the fact
 * trees as the reader may see them (the API applies visibility at every level), collapsible,
 * filtered by an entity or a search, the facts the paywall keeps back counted with the tenant's
 * offer, and printable.
 */
export function FactsReaderPage() {
  const isAdmin = useSessionSelector(selectIsAdmin);
  const { filters, setSearch, setEntity, clear } = useReaderFilters();
  const filtered = Object.keys(filters).length > 0;
  const current = useFactsReaderQuery(filters);
  // The whole intelbook (cached alike), for the entity filter's options while a filter narrows the page.
  const whole = useFactsReaderQuery({}, { skip: !filtered });
  const options = useMemo(() => mentionedEntities((filtered ? whole.data : current.data)?.sections ?? []), [filtered, whole.data, current.data]);
  const entityParam = ENTITY_PARAMS.find((param) => filters[param]);
  const chosen = entityParam ? (options.find((option) => option.param === entityParam && option.id === filters[entityParam]) ?? null) : null;
  const collapsing = useCollapsing();

  const data = current.data;
  const sections = useMemo(() => (data?.sections ?? []).filter((section) => section.categories.some((category) => category.facts.length > 0)), [data]);
  const allFacts = useMemo(() => sections.flatMap((section) => section.categories.flatMap((category) => category.facts)), [sections]);
  const total = factCount(allFacts);
  const expandable = useMemo(() => parentIds(allFacts), [allFacts]);

  return (
    <Stack spacing={3} data-testid="facts-reader">
      <PrintStyles />
      <Stack direction="row" useFlexGap sx={{ gap: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <PageHeading>Intelbooks</PageHeading>
        <Stack direction="row" spacing={1} className="facts-no-print">
          {isAdmin && (
            <Button variant="outlined" startIcon={<EditIcon />} component={RouterLink} to={EDITOR_PATH}>
              Edit intelbooks
            </Button>
          )}
          <Button variant="outlined" startIcon={<PrintIcon />} onClick={() => window.print()} disabled={total === 0}>
            Print
          </Button>
        </Stack>
      </Stack>

      {sections.length > 1 && (
        <Box component="nav" aria-label="Sections" className="facts-no-print" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {sections.map((section) => (
            <Chip key={section.id} component="a" href={`#section-${section.id}`} clickable label={section.name} variant="outlined" />
          ))}
        </Box>
      )}

      <Stack direction={{ xs: 'column', sm: 'row' }} useFlexGap className="facts-no-print" sx={{ gap: 2, alignItems: { sm: 'center' }, flexWrap: 'wrap' }}>
        <SearchField label="Search the facts" value={filters.search ?? ''} onSearch={setSearch} />
        <Autocomplete<EntityFilter>
          options={options}
          value={chosen}
          onChange={(_event, next) => setEntity(next)}
          groupBy={(option) => kindLabel(option.param)}
          getOptionLabel={(option) => option.name}
          isOptionEqualToValue={(a, b) => a.param === b.param && a.id === b.id}
          noOptionsText="No facts mention any keyword, organization, person or ledger entry"
          size="small"
          sx={{ flex: { xs: '1 1 100%', sm: '0 1 320px' }, minWidth: { sm: 260 } }}
          renderInput={(params) => <TextField {...params} label="Mentioning" placeholder="Keyword, organization, person…" />}
        />
        {expandable.length > 0 && (
          <Stack direction="row" spacing={1}>
            <Button size="small" startIcon={<UnfoldMoreIcon />} onClick={collapsing.expandAll} disabled={!collapsing.anyCollapsed}>
              Expand all
            </Button>
            <Button size="small" startIcon={<UnfoldLessIcon />} onClick={() => collapsing.collapseAll(expandable)}>
              Collapse all
            </Button>
          </Stack>
        )}
      </Stack>

      {data && <LockedOffer count={data.locked_count} noun={LOCKED_NOUNS.facts} className="facts-no-print" />}
      {current.isFetching && <LinearProgress aria-label="Loading the facts" className="facts-no-print" />}
      {current.error && !data && <RetryAlert onRetry={() => current.refetch()}>{apiErrorMessage(current.error)}</RetryAlert>}

      {data && (
        <>
          {filtered && (
            <Typography role="status" color="text.secondary" className="facts-no-print">
              {total === 0 ? 'No facts match.' : `${total.toLocaleString('en-GB')} ${total === 1 ? 'fact' : 'facts'} shown: the matches and the facts they sit under.`}{' '}
              <Link component="button" onClick={clear} sx={{ verticalAlign: 'baseline' }}>
                Show all facts
              </Link>
            </Typography>
          )}
          {!filtered && sections.length === 0 && (
            <Paper variant="outlined" sx={{ p: 3 }}>
              <Typography color="text.secondary">
                {data.locked_count > 0 ? 'Every fact here is locked for now.' : 'No facts have been published here yet.'}
                {isAdmin && (
                  <>
                    {' '}
                    <Link component={RouterLink} to={EDITOR_PATH}>
                      Open the editor
                    </Link>{' '}
                    to write some.
                  </>
                )}
              </Typography>
            </Paper>
          )}
          <CollapsingProvider value={collapsing.value}>
            <Stack spacing={4}>
              {sections.map((section) => (
                <SectionBlock key={section.id} section={section} onEntity={setEntity} />
              ))}
            </Stack>
          </CollapsingProvider>
        </>
      )}
      {current.error && data && <Alert severity="error">{apiErrorMessage(current.error)}</Alert>}
    </Stack>
  );
}
