import { Fragment, useEffect, useId, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { apiErrorMessage, apiFieldErrors, type ApiError } from '../../api/api-error';
import type { EntityFormApi } from '../../components/EntityForm';
import { useTestTaggingRuleQuery, type MatchType, type RuleTest } from './tagging.api';

/** Pause after typing before the rule is run again. */
const PAUSE_MS = 300;
/** The API reads at most this much of a record, so the tester does too. */
const MAX_TEXT = 200_000;

const SAMPLE = 'Paste a paragraph from an article, a note or a profile here to see what the rule matches.';

function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/** The text with every match marked. */
function Highlighted({ text, matches }: { text: string; matches: Array<{ start: number; end: number }> }) {
  const parts: Array<{ text: string; match: boolean }> = [];
  let position = 0;
  for (const match of matches) {
    if (match.start < position) continue;
    if (match.start > position) parts.push({ text: text.slice(position, match.start), match: false });
    // An empty match (e.g. a \b) has nothing to mark.
    if (match.end > match.start) parts.push({ text: text.slice(match.start, match.end), match: true });
    position = match.end;
  }
  if (position < text.length) parts.push({ text: text.slice(position), match: false });
  return (
    <Box
      data-testid="rule-test-highlight"
      sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', p: 1.5, borderRadius: 1, bgcolor: 'action.hover', maxHeight: 320, overflow: 'auto' }}
    >
      {parts.map((part, index) =>
        part.match ? (
          <Box component="mark" key={index} sx={{ bgcolor: 'warning.light', color: 'inherit', px: 0.25, borderRadius: 0.5 }}>
            {part.text}
          </Box>
        ) : (
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </Box>
  );
}

/**
 * "Test this rule": runs the rule as it stands in the form (pattern, match type, case) over a
 * sample text while either changes, and marks what it matches. Nothing is saved.
 */
export function RuleTester({ form }: { form: EntityFormApi }) {
  const id = useId();
  const [text, setText] = useState('');
  const pattern = String(form.values['pattern'] ?? '');
  const matchType = (String(form.values['match_type'] ?? '') || 'word') as MatchType;
  const caseSensitive = Boolean(form.values['case_sensitive']);
  // Compared as text, so an unchanged rule and sample do not run again.
  const wanted = JSON.stringify({ pattern, match_type: matchType, case_sensitive: caseSensitive, text } satisfies RuleTest);
  const settledKey = useSettled(wanted);
  const settled = useMemo(() => JSON.parse(settledKey) as RuleTest, [settledKey]);
  const ready = settled.pattern.trim() !== '' && settled.text.trim() !== '';
  const result = useTestTaggingRuleQuery(settled, { skip: !ready });
  const current = ready ? result.currentData : undefined;
  const error = ready && result.error ? (result.error as ApiError) : null;
  const problem = error ? (apiFieldErrors(error)['pattern']?.join(' ') ?? apiErrorMessage(error)) : null;
  const count = current?.matches.filter((match) => match.end > match.start).length ?? 0;

  return (
    <Paper variant="outlined" component="section" aria-labelledby={`${id}-title`} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={`${id}-title`} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        Test this rule
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Uses the pattern, match type and case setting below as you change them. Nothing is saved.
      </Typography>
      <TextField
        id={`${id}-text`}
        label="Sample text"
        value={text}
        onChange={(event) => setText(event.target.value.slice(0, MAX_TEXT))}
        placeholder={SAMPLE}
        multiline
        minRows={3}
        fullWidth
      />
      {ready && result.isFetching && <LinearProgress aria-label="Testing the rule" sx={{ mt: 1 }} />}
      {pattern.trim() === '' && text.trim() !== '' && (
        <Typography color="text.secondary" sx={{ mt: 1.5 }}>
          Enter a pattern to test it.
        </Typography>
      )}
      {problem && (
        <Alert severity="error" sx={{ mt: 1.5 }} data-testid="rule-test-error">
          {problem}
        </Alert>
      )}
      {current && !problem && (
        <Box sx={{ mt: 1.5 }}>
          <Typography role="status" sx={{ mb: 1, fontWeight: 600 }} data-testid="rule-test-status">
            {count === 0 ? 'No match.' : count === 1 ? '1 match.' : `${count} matches${current.truncated ? ' (the first 1,000 shown)' : ''}.`}
          </Typography>
          <Highlighted text={settled.text} matches={current.matches} />
        </Box>
      )}
    </Paper>
  );
}
