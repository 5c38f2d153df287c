import Box from '@mui/material/Box';
import { highlightParts, type MentionRange } from './mention-highlight';
import { searchRanges } from './search-highlight';

/**
 * Text with the words of a search marked (`<mark>`): given the search's words
 * (search-highlight.ts `searchWords`), or ranges already found (a snippet's).
 */
export function HighlightedText({ text, words, ranges }: { text: string; words?: readonly string[]; ranges?: MentionRange[] }) {
  const parts = highlightParts(text, ranges ?? searchRanges(text, words ?? []));
  return (
    <>
      {parts.map((part, index) =>
        part.mention ? (
          <Box
            key={index}
            component="mark"
            sx={{ bgcolor: 'rgba(251, 76, 2, 0.16)', color: 'inherit', fontWeight: 700, borderRadius: 0.5, px: '1px' }}
          >
            {part.text}
          </Box>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}
