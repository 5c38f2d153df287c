import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import type { ResourceRecord } from '../../api/resources';
import { HighlightedText } from '../../components/HighlightedText';
import { fieldLabel, recordName, type ResourceView } from '../../components/resource-view';
import { searchRanges, snippetAround } from '../../components/search-highlight';
import { VisibilityChip } from '../../components/VisibilityChip';
import { matchedField, textOf } from './search-match';
import type { SearchType } from './search-types';

interface SearchHitProps {
  type: SearchType;
  /** The type's view (search-types.ts searchView), whose labels name the field that matched. */
  view: ResourceView;
  meta: ResourceMeta;
  record: ResourceRecord;
  words: readonly string[];
  /** Whether to show the record's visibility (to those who see more than public records). */
  showVisibility: boolean;
}

/** One hit: its name (a link) with the search words marked, a line of its main fields, and where else it matched. */
export function SearchHit({ type, view, meta, record, words, showVisibility }: SearchHitProps) {
  const name = recordName(meta, record);
  const summary = type.summary
    .map((fieldName) => {
      const field = meta.fields.find((entry) => entry.name === fieldName);
      return field ? textOf(field, record[fieldName]) : '';
    })
    .filter((text) => text !== '');
  const match = matchedField(meta, record, words);
  const snippet = match && snippetAround(match.text, searchRanges(match.text, words));

  return (
    <Box component="li" data-testid="search-hit" sx={{ py: 1.75, px: { xs: 1.5, sm: 2.5 }, '& + &': { borderTop: 1, borderColor: 'divider' } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Link component={RouterLink} to={type.path(record)} sx={{ fontWeight: 600, fontSize: '1.05rem', overflowWrap: 'anywhere' }}>
          <HighlightedText text={name} words={words} />
        </Link>
        {showVisibility && typeof record['visibility'] === 'string' && <VisibilityChip value={record['visibility']} />}
      </Box>
      {summary.length > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25, overflowWrap: 'anywhere' }}>
          {summary.join(' · ')}
        </Typography>
      )}
      {snippet && match && (
        <Typography variant="body2" data-testid="search-hit-match" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
          <Box component="span" sx={{ color: 'text.secondary', fontWeight: 600 }}>
            {fieldLabel(view, match.field.name)}:{' '}
          </Box>
          <HighlightedText text={snippet.text} ranges={snippet.ranges} />
        </Typography>
      )}
    </Box>
  );
}
