import { useCallback, useMemo } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import { Link as RouterLink, useSearchParams } from 'react-router';
import type { RelatedRef, ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage } from '../../api/api-error';
import { useListResourceQuery, type ResourceRecord } from '../../api/resources';
import { refName } from '../../components/RelationField';
import { recordPath, useCanWrite } from '../../components/resource-view';
import { ResourceMetaGate } from '../../components/ResourceMetaGate';
import { RetryAlert } from '../../components/RetryAlert';
import { SearchField } from '../../components/SearchField';
import { VisibilityChip } from '../../components/VisibilityChip';
import { terminologyView } from './terminology.view';

/** Terms per page of the glossary (the API's largest page). */
const PAGE_SIZE = 100;

/** The letter a term is filed under: its first letter without accents, or # for digits and symbols. */
function letterOf(term: string): string {
  const first = term.trim().normalize('NFD').replace(/\p{M}/gu, '').charAt(0).toUpperCase();
  return /\p{L}/u.test(first) ? first : '#';
}

function groupByLetter(terms: ResourceRecord[]): Array<[string, ResourceRecord[]]> {
  const groups = new Map<string, ResourceRecord[]>();
  for (const term of terms) {
    const letter = letterOf(String(term['term'] ?? ''));
    groups.set(letter, [...(groups.get(letter) ?? []), term]);
  }
  return [...groups.entries()];
}

function Entry({ term, canWrite, onKeyword }: { term: ResourceRecord; canWrite: boolean; onKeyword: (ref: RelatedRef) => void }) {
  const keywords = (term['keywords'] as RelatedRef[] | undefined) ?? [];
  const definition = typeof term['definition'] === 'string' ? term['definition'] : '';
  return (
    <Box component="article" aria-labelledby={`term-${term.id}`} data-testid="glossary-entry" sx={{ py: 2, '& + &': { borderTop: 1, borderColor: 'divider' } }}>
      <Stack direction="row" useFlexGap sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography id={`term-${term.id}`} variant="h6" component="h3" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
          <Link component={RouterLink} to={recordPath(terminologyView, term.id)} color="inherit" underline="hover">
            {String(term['term'] ?? '')}
          </Link>
        </Typography>
        {term['visibility'] !== 'public' && <VisibilityChip value={term['visibility']} />}
        {canWrite && (
          <IconButton size="small" component={RouterLink} to={`${recordPath(terminologyView, term.id)}/edit`} aria-label={`Edit ${String(term['term'] ?? 'term')}`}>
            <EditIcon fontSize="small" />
          </IconButton>
        )}
      </Stack>
      {definition ? (
        <Typography sx={{ whiteSpace: 'pre-wrap', mt: 0.5, maxWidth: '75ch' }}>{definition}</Typography>
      ) : (
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          No definition yet.
        </Typography>
      )}
      {keywords.length > 0 && (
        <Stack direction="row" useFlexGap aria-label="Keywords" sx={{ gap: 0.75, flexWrap: 'wrap', mt: 1 }}>
          {keywords.map((ref) => (
            <Chip key={ref.id} size="small" label={refName(ref)} onClick={() => onKeyword(ref)} title={`Show the terms with the keyword “${refName(ref)}”`} />
          ))}
        </Stack>
      )}
    </Box>
  );
}

function Glossary({ meta }: { meta: ResourceMeta }) {
  const canWrite = useCanWrite(meta);
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const keyword = params.get('keywords') ?? '';
  const keywordName = params.get('keyword_name') ?? '';
  const page = Math.max(0, (Number(params.get('page')) || 1) - 1);

  const update = useCallback(
    (changes: Record<string, string | null>) => {
      const next = new URLSearchParams(params);
      for (const [name, value] of Object.entries(changes)) {
        if (value === null || value === '') next.delete(name);
        else next.set(name, value);
      }
      if (!('page' in changes)) next.delete('page');
      setParams(next);
    },
    [params, setParams],
  );
  const onSearch = useCallback((text: string) => update({ search: text }), [update]);

  const listParams = useMemo(
    () => ({
      ordering: 'term',
      limit: String(PAGE_SIZE),
      offset: String(page * PAGE_SIZE),
      ...(search ? { search } : {}),
      ...(keyword ? { keywords: keyword } : {}),
    }),
    [page, search, keyword],
  );
  const list = useListResourceQuery({ path: meta.path, params: listParams });
  const terms = list.data?.results ?? [];
  const count = list.data?.count ?? 0;
  const pages = Math.ceil(count / PAGE_SIZE);

  return (
    <Stack spacing={3}>
      <Stack direction="row" useFlexGap sx={{ gap: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Box>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
            Terminology
          </Typography>
          <Typography color="text.secondary">The words of the trade, defined.</Typography>
        </Box>
        {canWrite && (
          <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/terminology/create">
            New term
          </Button>
        )}
      </Stack>
      <Stack direction="row" useFlexGap sx={{ gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
        <SearchField label="Search terms and definitions" value={search} onSearch={onSearch} />
        {keyword && (
          <Chip
            color="primary"
            variant="outlined"
            label={`Keyword: ${keywordName || 'selected'}`}
            onDelete={() => update({ keywords: null, keyword_name: null })}
          />
        )}
        {list.data && (
          <Typography color="text.secondary" role="status">
            {count === 1 ? '1 term' : `${count.toLocaleString('en-GB')} terms`}
          </Typography>
        )}
      </Stack>
      {list.isFetching && <LinearProgress aria-label="Loading terms" />}
      {list.error && <RetryAlert onRetry={() => list.refetch()}>{apiErrorMessage(list.error)}</RetryAlert>}
      {list.data && terms.length === 0 && (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography>{search || keyword ? 'No terms match.' : 'No terms yet.'}</Typography>
        </Paper>
      )}
      {groupByLetter(terms).map(([letter, entries]) => (
        <Paper key={letter} variant="outlined" component="section" aria-labelledby={`letter-${letter}`} sx={{ px: { xs: 2, sm: 3 }, py: 1 }}>
          <Typography id={`letter-${letter}`} variant="h5" component="h2" sx={{ fontWeight: 700, color: 'primary.dark', pt: 1 }}>
            {letter}
          </Typography>
          {entries.map((term) => (
            <Entry key={term.id} term={term} canWrite={canWrite} onKeyword={(ref) => update({ keywords: ref.id, keyword_name: refName(ref) })} />
          ))}
        </Paper>
      ))}
      {pages > 1 && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'center' }}>
          <Button disabled={page === 0} onClick={() => update({ page: page === 1 ? null : String(page) })}>
            Previous
          </Button>
          <Typography>
            Page {page + 1} of {pages}
          </Typography>
          <Button disabled={page + 1 >= pages} onClick={() => update({ page: String(page + 2) })}>
            Next
          </Button>
        </Stack>
      )}
    </Stack>
  );
}

/** /terminology (SPEC §2, public): the glossary, terms in alphabetical order with their definitions and keywords. */
export function GlossaryPage() {
  return <ResourceMetaGate kind={terminologyView.kind}>{(meta) => <Glossary meta={meta} />}</ResourceMetaGate>;
}
