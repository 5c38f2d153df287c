import { useMemo, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { alpha, useTheme, type Theme } from '@mui/material/styles';
import { Link as RouterLink } from 'react-router';
import { apiErrorMessage, apiFieldErrors, type ApiError } from '../../api/api-error';
import { VisuallyHidden } from '../../components/VisuallyHidden';
import { PASTE_MAX_BYTES, useParseTextMutation, type ParseTextResult } from './emails.api';
import { emailEditPath } from './emails.view';
import { answerSpans, markId, textParts, type SpanKind } from './parse-highlight';

const count = (n: number) => n.toLocaleString('en-GB');
const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;
const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toLocaleString('en-GB', { maximumFractionDigits: 2 })} MB`;

/** How each kind of stretch looks: a colour and a line of its own, so it is not told by colour alone. */
function markStyle(theme: Theme, kind: SpanKind) {
  const palette = { created: theme.palette.success, duplicate: theme.palette.warning, invalid: theme.palette.error }[kind];
  return {
    bgcolor: alpha(palette.main, kind === 'created' ? 0.12 : 0.22),
    color: 'text.primary',
    borderRadius: '2px',
    textDecorationLine: 'underline',
    textDecorationStyle: { created: 'solid', duplicate: 'dashed', invalid: 'wavy' }[kind],
    textDecorationColor: palette.dark,
    textDecorationThickness: kind === 'created' ? '1px' : '2px',
    textUnderlineOffset: '3px',
    scrollMarginBlock: '48px',
    '&:focus': { outline: `2px solid ${palette.dark}`, outlineOffset: 1 },
  } as const;
}

const KIND_WORDS: Record<SpanKind, string> = { created: 'added', duplicate: 'duplicate', invalid: 'invalid' };

/** Brings a stretch of the text into view and focuses it (from its entry in the reasons list). */
function showMark(kind: SpanKind, index: number) {
  const mark = document.getElementById(markId(kind, index));
  mark?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  mark?.focus({ preventScroll: true });
}

function Summary({ counts }: { counts: ParseTextResult['counts'] }) {
  const theme = useTheme();
  const entries: Array<{ key: keyof ParseTextResult['counts']; label: string; color: string }> = [
    { key: 'created', label: 'Added', color: theme.palette.success.dark },
    { key: 'duplicates', label: 'Duplicates', color: theme.palette.warning.dark },
    { key: 'invalid', label: 'Invalid', color: theme.palette.error.dark },
    { key: 'found', label: 'Addresses found', color: theme.palette.text.primary },
  ];
  return (
    <Box
      component="dl"
      data-testid="parse-summary"
      sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(4, 1fr)' }, gap: 1.5 }}
    >
      {entries.map((entry) => (
        <Paper key={entry.key} variant="outlined" sx={{ px: 2, py: 1.25 }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {entry.label}
          </Typography>
          <Typography component="dd" variant="h5" data-testid={`parse-count-${entry.key}`} sx={{ m: 0, fontWeight: 700, color: entry.color }}>
            {count(counts[entry.key])}
          </Typography>
        </Paper>
      ))}
    </Box>
  );
}

/** The pasted text with what the answer found marked where it was: added, duplicate, invalid. */
function HighlightedText({ text, answer }: { text: string; answer: ParseTextResult }) {
  const theme = useTheme();
  const parts = useMemo(() => textParts(text, answerSpans(answer)), [text, answer]);
  const reason = (kind: SpanKind, index: number) =>
    kind === 'invalid' ? answer.invalid[index]?.reason : kind === 'duplicate' ? answer.duplicates[index]?.reason : 'Added to the list';
  return (
    <Stack spacing={1}>
      <Stack direction="row" useFlexGap sx={{ gap: 2, flexWrap: 'wrap' }} aria-hidden="true">
        {(['created', 'duplicate', 'invalid'] as const).map((kind) => (
          <Typography key={kind} variant="body2">
            <Box component="span" sx={{ ...markStyle(theme, kind), px: 0.5 }}>
              {KIND_WORDS[kind].charAt(0).toUpperCase() + KIND_WORDS[kind].slice(1)}
            </Box>
          </Typography>
        ))}
      </Stack>
      <Paper
        variant="outlined"
        component="pre"
        tabIndex={0}
        aria-label="The pasted text, with what was found marked"
        data-testid="parsed-text"
        sx={{
          m: 0,
          p: 1.5,
          maxHeight: '40vh',
          overflow: 'auto',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontSize: '0.85rem',
          lineHeight: 1.7,
        }}
      >
        {parts.map((part, at) =>
          part.span ? (
            <Box
              key={at}
              component="mark"
              id={markId(part.span.kind, part.span.index)}
              tabIndex={-1}
              data-kind={part.span.kind}
              title={reason(part.span.kind, part.span.index)}
              sx={markStyle(theme, part.span.kind)}
            >
              {part.text}
              {part.span.kind !== 'created' && <VisuallyHidden>{` (${KIND_WORDS[part.span.kind]}: ${reason(part.span.kind, part.span.index) ?? ''})`}</VisuallyHidden>}
            </Box>
          ) : (
            part.text
          ),
        )}
      </Paper>
    </Stack>
  );
}

/**
 * One list of the answer (invalid, duplicates): each entry with its line, leading to its mark, its
 * text (a duplicate's links to the item it repeats) and its reason.
 */
function ReasonList({ title, kind, entries }: { title: string; kind: SpanKind; entries: Array<{ text: string; line: number; reason: string; href?: string | null }> }) {
  if (entries.length === 0) return null;
  return (
    <Box component="section" aria-label={title} data-testid={`parse-${kind}-list`}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 0.5 }}>
        {title} ({count(entries.length)})
      </Typography>
      <Box component="ol" sx={{ m: 0, pl: 3, maxHeight: 220, overflow: 'auto' }}>
        {entries.map((entry, index) => (
          <li key={index}>
            <Link component="button" type="button" onClick={() => showMark(kind, index)} sx={{ textAlign: 'left', verticalAlign: 'baseline' }}>
              Line {count(entry.line)}
            </Link>
            {': '}
            {entry.href ? (
              <Link component={RouterLink} to={entry.href} sx={{ overflowWrap: 'anywhere', fontFamily: 'monospace' }}>
                {entry.text}
              </Link>
            ) : (
              <Box component="code" sx={{ overflowWrap: 'anywhere' }}>{entry.text}</Box>
            )}
            {' — '}
            <Typography component="span" variant="body2" color="text.secondary">
              {entry.reason}
            </Typography>
          </li>
        ))}
      </Box>
    </Box>
  );
}

function AddedList({ answer }: { answer: ParseTextResult }) {
  if (answer.created.length === 0) return null;
  return (
    <Box component="section" aria-label="Added" data-testid="parse-created-list">
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 0.5 }}>
        Added ({count(answer.created.length)})
      </Typography>
      <Box component="ol" sx={{ m: 0, pl: 3, maxHeight: 220, overflow: 'auto' }}>
        {answer.created.map((item) => (
          <li key={item.id}>
            <Link component={RouterLink} to={emailEditPath(item.id)} sx={{ overflowWrap: 'anywhere' }}>
              {item.email}
            </Link>
            {item.name && (
              <Typography component="span" variant="body2" color="text.secondary">
                {` — ${item.name}`}
              </Typography>
            )}
          </li>
        ))}
      </Box>
    </Box>
  );
}

interface PasteAddressesDialogProps {
  open: boolean;
  onClose: () => void;
}

/**
 * The paste-and-parse dialog: any text in (signatures, mail headers, lists), every address in it
 * added to the list (POST dxlist/bulk_create/parse_text); then what was found — added,
 * duplicates, invalid — counted, marked in the text where it was, and the reasons given.
 */
export function PasteAddressesDialog({ open, onClose }: PasteAddressesDialogProps) {
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [text, setText] = useState('');
  const [result, setResult] = useState<{ text: string; answer: ParseTextResult } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [parse, parseState] = useParseTextMutation();
  const bytes = useMemo(() => utf8Bytes(text), [text]);
  const tooLarge = bytes > PASTE_MAX_BYTES;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') {
      setProblem('Paste some text with addresses in it.');
      return;
    }
    if (tooLarge) {
      setProblem(`The text is ${megabytes(bytes)}: at most 1 MB can be pasted at once.`);
      return;
    }
    setProblem(null);
    try {
      const answer = await parse(text).unwrap();
      setResult({ text, answer });
    } catch (error) {
      const fields = apiFieldErrors(error as ApiError);
      setProblem(fields['raw_text']?.join(' ') ?? apiErrorMessage(error as ApiError));
    }
  };
  const again = () => {
    setResult(null);
    setText('');
    setProblem(null);
  };
  const close = () => {
    if (parseState.isLoading) return;
    onClose();
    again();
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="md" fullScreen={fullScreen} aria-labelledby="paste-addresses-title">
      {result === null ? (
        <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'contents' }}>
          <DialogTitle id="paste-addresses-title">Paste addresses</DialogTitle>
          <DialogContent>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <Typography color="text.secondary">
                Paste any text — signatures, mail headers, a list — and every address in it is added to the list, with the name beside it.
                Written-out addresses such as <code>ann [at] example [dot] com</code> are read too; duplicates and what is not an
                address are shown with the reason.
              </Typography>
              <TextField
                label="Text with addresses"
                multiline
                minRows={12}
                maxRows={22}
                fullWidth
                autoFocus
                value={text}
                onChange={(event) => {
                  setText(event.target.value);
                  setProblem(null);
                }}
                error={problem !== null || tooLarge}
                helperText={problem ?? (tooLarge ? `${megabytes(bytes)}: at most 1 MB can be pasted at once.` : 'Up to 1 MB of text.')}
                slotProps={{ htmlInput: { spellCheck: false } }}
                sx={{ '& textarea': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.85rem' } }}
              />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={parseState.isLoading}>
              Cancel
            </Button>
            <Button type="submit" variant="contained" loading={parseState.isLoading} loadingPosition="start" disabled={tooLarge}>
              Find and add addresses
            </Button>
          </DialogActions>
        </Box>
      ) : (
        <>
          <DialogTitle id="paste-addresses-title">
            {result.answer.counts.found === 0 ? 'No addresses found' : `${count(result.answer.counts.found)} ${result.answer.counts.found === 1 ? 'address' : 'addresses'} found`}
          </DialogTitle>
          <DialogContent>
            <Stack spacing={2.5} sx={{ pt: 1 }}>
              <Summary counts={result.answer.counts} />
              {result.answer.counts.found === 0 && result.answer.counts.invalid === 0 && (
                <Alert severity="info">Nothing in the text looks like an address.</Alert>
              )}
              <HighlightedText text={result.text} answer={result.answer} />
              <ReasonList
                title="Invalid"
                kind="invalid"
                entries={result.answer.invalid.map((entry) => ({ text: entry.text, line: entry.line, reason: entry.reason }))}
              />
              <ReasonList
                title="Duplicates"
                kind="duplicate"
                entries={result.answer.duplicates.map((entry) => ({
                  text: entry.email,
                  line: entry.line,
                  reason: entry.reason,
                  // The item it repeats: the one in the list, or the one its first place in the text added.
                  href: entry.existing_id ? emailEditPath(entry.existing_id) : null,
                }))}
              />
              <AddedList answer={result.answer} />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={again}>Paste more</Button>
            <Button variant="contained" onClick={close}>
              Done
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
