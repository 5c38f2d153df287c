import { useState, type FormEvent } from 'react';
import SearchIcon from '@mui/icons-material/Search';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { LazyOperatorTab } from './operator/LazyOperatorTab';
import { RESULT_TYPE_ORDER, resultGroupLabel, resultName, resultPath } from './search-results';
import { useSearchQuery, type SearchResult } from './search.api';

/** The advanced search shows up to this many results of each type (the API's maximum). */
const RESULTS_PER_TYPE = 50;

/** /search: advanced search (?q=) and, on ?tab=1, the Operator. */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === '1' ? 1 : 0;
  const q = (params.get('q') ?? '').trim();

  const selectTab = (next: number) => {
    const updated = new URLSearchParams(params);
    if (next === 0) updated.delete('tab');
    else updated.set('tab', String(next));
    setParams(updated);
  };

  return (
    <>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 2 }}>
        Search
      </Typography>
      <Tabs
        value={tab}
        onChange={(_event, next: number) => selectTab(next)}
        aria-label="Search modes"
        textColor="inherit"
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider', '& .Mui-selected': { color: 'primary.dark' } }}
      >
        <Tab label="Advanced search" id="search-tab-0" aria-controls="search-panel-0" />
        <Tab label="Operator" id="search-tab-1" aria-controls="search-panel-1" />
      </Tabs>
      <Box role="tabpanel" id={`search-panel-${tab}`} aria-labelledby={`search-tab-${tab}`}>
        {tab === 0 ? (
          // Keyed by the query so the box shows it again after back/forward navigation.
          <AdvancedSearch key={q} q={q} onSearch={(next) => setParams(next === '' ? {} : { q: next })} />
        ) : (
          <LazyOperatorTab />
        )}
      </Box>
    </>
  );
}

function AdvancedSearch({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(q);
  const search = useSearchQuery({ q, limit: RESULTS_PER_TYPE }, { skip: q === '' });

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSearch(text.trim());
  };

  const results = search.currentData?.results ?? [];
  const groups = groupByType(results);

  return (
    <>
      <Box component="form" role="search" onSubmit={handleSubmit} sx={{ display: 'flex', gap: 1.5, mb: 3, flexWrap: 'wrap' }}>
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
      {search.isFetching && <LinearProgress aria-label="Searching" sx={{ mb: 2 }} />}
      {q === '' && <Typography color="text.secondary">Type a name and press Enter to search.</Typography>}
      {q !== '' && search.isError && <Alert severity="error">Could not search. Please try again later.</Alert>}
      {q !== '' && search.currentData && results.length === 0 && (
        <Typography role="status" color="text.secondary">
          No results found.
        </Typography>
      )}
      {groups.map(([type, hits]) => (
        <Paper key={type} variant="outlined" component="section" sx={{ mb: 2.5, p: { xs: 1.5, sm: 2.5 } }}>
          <Typography variant="h6" component="h2" sx={{ fontWeight: 700 }}>
            {resultGroupLabel(type)}{' '}
            <Typography component="span" color="text.secondary">
              ({hits.length === RESULTS_PER_TYPE ? `first ${RESULTS_PER_TYPE}` : hits.length})
            </Typography>
          </Typography>
          <List dense>
            {hits.map((hit) => (
              <ListItem key={hit.id} disableGutters>
                <Link component={RouterLink} to={resultPath(hit, q)} sx={{ overflowWrap: 'anywhere' }}>
                  {resultName(hit)}
                </Link>
              </ListItem>
            ))}
          </List>
        </Paper>
      ))}
    </>
  );
}

/** Results grouped by type, known types in their usual order first. */
function groupByType(results: readonly SearchResult[]): [string, SearchResult[]][] {
  const groups = new Map<string, SearchResult[]>();
  for (const result of results) groups.set(result.type, [...(groups.get(result.type) ?? []), result]);
  const rank = (type: string) => {
    const index = RESULT_TYPE_ORDER.indexOf(type);
    return index === -1 ? RESULT_TYPE_ORDER.length : index;
  };
  return [...groups.entries()].sort(([a], [b]) => rank(a) - rank(b));
}
