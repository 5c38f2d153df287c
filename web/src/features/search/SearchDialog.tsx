import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import ClearIcon from '@mui/icons-material/Clear';
import CloseIcon from '@mui/icons-material/Close';
import SearchIcon from '@mui/icons-material/Search';
import SmartToyOutlinedIcon from '@mui/icons-material/SmartToyOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { useNavigate } from 'react-router';
import { useEntityCounts } from '../../api/counts';
import { EntityCount } from '../../components/EntityCount';
import { selectIsAdmin, useSessionSelector } from '../../lib/session';
import {
  advancedSearchPath,
  FILTER_CHIPS,
  filterResults,
  OPERATOR_PATH,
  resultLabel,
  resultName,
  resultPath,
  searchTypes,
  type FilterChip,
} from './search-results';
import { useSearchQuery } from './search.api';

/** SPEC §5: the quick search fires only for a non-empty query after this pause. */
const SEARCH_PAUSE_MS = 800;

interface SearchDialogProps {
  open: boolean;
  onClose: () => void;
}

/** The quick-search dialog (header button, Cmd+F / Ctrl+F). */
export function SearchDialog({ open, onClose }: SearchDialogProps) {
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={fullScreen}
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: { alignSelf: { sm: 'flex-start' }, mt: { sm: 10 }, maxHeight: { sm: 'calc(100% - 160px)' } } } }}
    >
      {open && <SearchPanel titleId={titleId} onClose={onClose} />}
    </Dialog>
  );
}

interface Item {
  key: string;
  primary: string;
  secondary: ReactNode;
  to: string;
}

/** The dialog's content, mounted while it is open so every opening starts afresh. */
function SearchPanel({ titleId, onClose }: { titleId: string; onClose: () => void }) {
  const navigate = useNavigate();
  const listboxId = useId();
  const isAdmin = useSessionSelector(selectIsAdmin);
  const { countOf } = useEntityCounts();
  const [text, setText] = useState('');
  const [debounced, setDebounced] = useState('');
  const [chips, setChips] = useState<ReadonlySet<FilterChip>>(new Set());
  const [active, setActive] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);

  const query = text.trim();
  useEffect(() => {
    if (query === '') {
      setDebounced('');
      return;
    }
    const timer = window.setTimeout(() => setDebounced(query), SEARCH_PAUSE_MS);
    return () => window.clearTimeout(timer);
  }, [query]);

  const type = searchTypes(chips);
  const search = useSearchQuery({ q: debounced, ...(type ? { type } : {}) }, { skip: debounced === '' });
  const pending = query !== '' && (query !== debounced || search.isFetching);

  const shortcuts: Item[] = [
    ...(isAdmin ? [{ key: 'rawdata', primary: 'RawData', kinds: ['raw_data'], to: '/rawdata?tab=1' }] : []),
    { key: 'keywords', primary: 'Keywords', kinds: ['keyword'], to: '/keywords' },
    ...(isAdmin ? [{ key: 'emails', primary: 'Emails', kinds: ['emails'], to: '/emails?tab=1' }] : []),
    { key: 'people', primary: 'People', kinds: ['people'], to: '/people' },
    { key: 'organizations', primary: 'Organizations', kinds: ['organizations'], to: '/organizations' },
    { key: 'ledger', primary: 'Ledger', kinds: ['ledger_entries'], to: '/ledger' },
    { key: 'library', primary: 'Library', kinds: ['library'], to: '/library' },
    {
      key: 'lists',
      primary: 'Lists',
      kinds: ['library_lists', 'organizations_lists', 'people_lists', 'ledger_lists'],
      to: '/lists',
      dash: true,
    },
  ].map(({ kinds, dash, ...item }: { key: string; primary: string; kinds: string[]; to: string; dash?: boolean }) => ({
    ...item,
    secondary: <EntityCount count={countOf(kinds)} dashIfZero={dash} />,
  }));

  const results = query !== '' && search.currentData ? filterResults(search.currentData.results, chips) : [];
  const items: Item[] =
    query === ''
      ? shortcuts
      : results.map((result) => ({
          key: `${result.type}:${result.id}`,
          primary: resultName(result),
          secondary: resultLabel(result.type),
          to: resultPath(result, query),
        }));

  // A new query or filter starts the keyboard selection over.
  useEffect(() => setActive(-1), [query, debounced, chips, search.currentData]);
  useEffect(() => {
    if (active >= 0) document.getElementById(`${listboxId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, listboxId]);

  const go = (to: string) => {
    onClose();
    void navigate(to);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((index) => (items.length === 0 ? -1 : Math.min(index + 1, items.length - 1)));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, -1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const item = items[active];
      go(item ? item.to : advancedSearchPath(query));
    }
  };

  const toggleChip = (label: FilterChip) =>
    setChips((current) => {
      const next = new Set(current);
      if (!next.delete(label)) next.add(label);
      return next;
    });

  const showError = query !== '' && query === debounced && search.isError;
  const showEmpty = query !== '' && !pending && !search.isError && search.currentData !== undefined && items.length === 0;

  return (
    <>
      <Box sx={{ px: { xs: 2, sm: 3 }, pt: 2, pb: 1.5 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 1.5 }}>
          <Typography id={titleId} variant="h6" component="h2" sx={{ fontWeight: 700 }}>
            Search
          </Typography>
          <IconButton aria-label="Close search" onClick={onClose} edge="end">
            <CloseIcon />
          </IconButton>
        </Box>
        <TextField
          fullWidth
          autoFocus
          inputRef={inputRef}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={handleKeyDown}
          placeholder="Type for quick search, enter for advanced search"
          slotProps={{
            htmlInput: {
              'aria-label': 'Search',
              role: 'combobox',
              'aria-autocomplete': 'list',
              'aria-expanded': items.length > 0,
              'aria-controls': listboxId,
              'aria-activedescendant': active >= 0 ? `${listboxId}-${active}` : undefined,
              maxLength: 200,
              enterKeyHint: 'search',
            },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon aria-hidden="true" />
                </InputAdornment>
              ),
              endAdornment: text !== '' && (
                <InputAdornment position="end">
                  <IconButton aria-label="Clear search" edge="end" onClick={() => setText('')}>
                    <ClearIcon />
                  </IconButton>
                </InputAdornment>
              ),
            },
          }}
        />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 1.5 }}>
          <Box role="group" aria-label="Filter results by type" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, flex: '1 1 auto' }}>
            {FILTER_CHIPS.map((chip) => {
              const selected = chips.has(chip.label);
              return (
                <Chip
                  key={chip.label}
                  label={chip.label}
                  size="small"
                  clickable
                  color={selected ? 'primary' : 'default'}
                  variant={selected ? 'filled' : 'outlined'}
                  aria-pressed={selected}
                  // A chip filters what is typed: the search box keeps the focus (and the caret).
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => {
                    toggleChip(chip.label);
                    inputRef.current?.focus();
                  }}
                />
              );
            })}
          </Box>
          <Button size="small" variant="outlined" color="inherit" startIcon={<SmartToyOutlinedIcon />} onClick={() => go(OPERATOR_PATH)}>
            Ask to Operator
          </Button>
        </Box>
      </Box>
      <Box sx={{ height: 4 }}>{pending && <LinearProgress aria-label="Searching" />}</Box>
      <Box sx={{ overflowY: 'auto', px: { xs: 1, sm: 1.5 }, pb: 2, minHeight: 120 }}>
        {query === '' && (
          <Typography variant="overline" component="p" sx={{ px: 1.5, pt: 1, color: 'text.secondary' }}>
            Go to
          </Typography>
        )}
        {showError && (
          <Alert severity="error" sx={{ mx: 1.5, mt: 1.5 }}>
            Could not search. Please try again later.
          </Alert>
        )}
        {showEmpty && (
          <Typography role="status" sx={{ px: 1.5, pt: 2, color: 'text.secondary' }}>
            No results found.
          </Typography>
        )}
        <List id={listboxId} role="listbox" aria-label={query === '' ? 'Shortcuts' : 'Search results'} dense>
          {items.map((item, index) => (
            <ListItemButton
              key={item.key}
              id={`${listboxId}-${index}`}
              role="option"
              aria-selected={index === active}
              selected={index === active}
              tabIndex={-1}
              onClick={() => go(item.to)}
              onMouseMove={() => setActive(index)}
              sx={{ borderRadius: 1 }}
            >
              <ListItemText
                primary={item.primary}
                slotProps={{ primary: { noWrap: true, sx: { fontWeight: 500 } } }}
                sx={{ minWidth: 0, mr: 2 }}
              />
              <Typography component="span" variant="body2" sx={{ color: 'text.secondary', flexShrink: 0 }}>
                {item.secondary}
              </Typography>
            </ListItemButton>
          ))}
        </List>
        {query !== '' && (
          <Typography variant="body2" sx={{ px: 1.5, color: 'text.secondary' }}>
            Press Enter to see all results for “{query}”.
          </Typography>
        )}
      </Box>
    </>
  );
}
