import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ChatIcon from '@mui/icons-material/ChatBubbleOutlineOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import InboxIcon from '@mui/icons-material/MoveToInboxOutlined';
import type { AuditEntry, FieldMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage, apiFieldErrors, type ApiError } from '../../api/api-error';
import { useResourceMeta } from '../../api/resources';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatDateTime } from '../../components/field-format';
import { ACTION_LABELS, historyValue, relativeTime, shortened } from '../../components/history-format';
import { MarkdownText } from '../../components/MarkdownText';
import { notify } from '../../components/notify';
import { fieldLabel } from '../../components/resource-view';
import { RetryAlert } from '../../components/RetryAlert';
import { useResourceView } from '../../lib/resource-views';
import { selectCanResearch, selectIsAdmin, selectSession, useSessionSelector } from '../../lib/session';
import { insertMention, matchingTeammates, mentionAt, mentionedIn } from './mentions';
import {
  useActivityQuery,
  useAddNoteMutation,
  useDeleteNoteMutation,
  useEditNoteMutation,
  useTeammatesQuery,
  type ActivityItem,
  type Note,
  type NoteUser,
} from './notes.api';

/** Items per page of the timeline; "Show older" reads the next page below. */
export const ACTIVITY_PAGE_SIZE = 20;
const NOTE_MAX_LENGTH = 10_000;

const nameOf = (user: NoteUser | null | undefined) => (user ? (user.alias?.trim() || user.email) : 'A former user');

function When({ at }: { at: string }) {
  return (
    <Box component="time" dateTime={at} title={formatDateTime(at)} sx={{ color: 'text.secondary' }}>
      {relativeTime(at)}
    </Box>
  );
}

/** Who wrote an audit entry, in words. */
function writerOf(entry: AuditEntry): string {
  if (entry.user_email) return entry.user_email;
  return entry.on_behalf_of ? `the system on behalf of ${entry.on_behalf_of.email ?? 'a user'}` : 'the system';
}

/**
 * A text box for a note with @-autocomplete of teammates: typing "@" and letters lists the
 * matching research users and admins; ↑/↓ choose, Enter or Tab puts the handle in, Escape closes.
 */
function NoteEditor({ initial, initialMentions, busy, submitLabel, onSubmit, onCancel, fieldError }: {
  initial: string;
  initialMentions: NoteUser[];
  busy: boolean;
  submitLabel: string;
  onSubmit: (body: string, mentions: string[]) => Promise<boolean>;
  onCancel?: () => void;
  fieldError: string | null;
}) {
  const teammates = useTeammatesQuery();
  const [text, setText] = useState(initial);
  const [chosen, setChosen] = useState<NoteUser[]>(initialMentions);
  const [caret, setCaret] = useState(initial.length);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const input = useRef<HTMLTextAreaElement | null>(null);
  /** Where the caret goes once a picked mention is in the text: set as the text is committed, before any further key is handled. */
  const pendingCaret = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (pendingCaret.current === null) return;
    input.current?.setSelectionRange(pendingCaret.current, pendingCaret.current);
    pendingCaret.current = null;
  }, [text]);
  const listId = useId();
  const typing = mentionAt(text, caret);
  const options = typing && typing.start !== dismissed ? matchingTeammates(teammates.data ?? [], typing.query) : [];
  const open = options.length > 0;

  const pick = (user: NoteUser) => {
    if (!typing) return;
    const next = insertMention(text, typing.start, caret, user);
    pendingCaret.current = next.caret;
    setText(next.text);
    setCaret(next.caret);
    setChosen((list) => (list.some((one) => one.id === user.id) ? list : [...list, user]));
    setActive(0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        setActive((index) => (index + (event.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        pick(options[Math.min(active, options.length - 1)]!);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setDismissed(typing?.start ?? null);
        return;
      }
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  };

  const submit = async () => {
    if (text.trim() === '' || busy) return;
    if (await onSubmit(text, mentionedIn(text, chosen))) {
      setText('');
      setChosen([]);
      setCaret(0);
    }
  };

  const track = (target: HTMLTextAreaElement) => {
    setCaret(target.selectionStart ?? target.value.length);
    setActive(0);
  };

  return (
    <Box sx={{ position: 'relative' }}>
      <TextField
        label={submitLabel === 'Comment' ? 'Add a comment' : 'Edit the comment'}
        placeholder="Write a note — **bold**, *italic*, [links](https://…); type @ to mention a teammate"
        multiline
        minRows={2}
        fullWidth
        value={text}
        inputRef={input}
        error={fieldError !== null}
        helperText={fieldError ?? 'Ctrl+Enter sends. Mentioned teammates are notified.'}
        onChange={(event) => {
          setText(event.target.value);
          track(event.target as HTMLTextAreaElement);
        }}
        onSelect={(event) => track(event.target as HTMLTextAreaElement)}
        onKeyDown={onKeyDown}
        slotProps={{
          htmlInput: {
            maxLength: NOTE_MAX_LENGTH,
            role: 'combobox',
            'aria-autocomplete': 'list',
            'aria-expanded': open,
            'aria-controls': open ? listId : undefined,
            'aria-activedescendant': open ? `${listId}-${Math.min(active, options.length - 1)}` : undefined,
          },
        }}
      />
      {open && (
        <Paper elevation={6} sx={{ position: 'absolute', zIndex: 10, left: 0, top: '100%', mt: -2.5, minWidth: 260, maxWidth: '100%' }}>
          <List id={listId} role="listbox" aria-label="Teammates" dense disablePadding>
            {options.map((user, index) => (
              <ListItemButton
                key={user.id}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === Math.min(active, options.length - 1)}
                selected={index === Math.min(active, options.length - 1)}
                // Chosen with the mouse without taking the focus from the text box.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(user)}
              >
                <ListItemText primary={nameOf(user)} secondary={user.email} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 1, justifyContent: 'flex-end' }}>
        {onCancel && (
          <Button onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
        <Button variant="contained" onClick={() => void submit()} disabled={busy || text.trim() === ''}>
          {submitLabel}
        </Button>
      </Stack>
    </Box>
  );
}

function Comment({ note }: { note: Note }) {
  const me = useSessionSelector(selectSession).id;
  const isAdmin = useSessionSelector(selectIsAdmin);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [edit, edited] = useEditNoteMutation();
  const [remove, removed] = useDeleteNoteMutation();
  const [error, setError] = useState<string | null>(null);
  const mine = note.author?.id === me;
  const changed = note.updated_at !== note.created_at;

  const save = async (body: string, mentions: string[]) => {
    try {
      await edit({ id: note.id, body, mentions }).unwrap();
      setEditing(false);
      setError(null);
      return true;
    } catch (failure) {
      const fields = apiFieldErrors(failure as ApiError);
      setError(fields['body']?.[0] ?? fields['mentions']?.[0] ?? apiErrorMessage(failure as ApiError));
      return false;
    }
  };

  return (
    <Box data-note={note.id}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {nameOf(note.author)}{' '}
        <Typography component="span" variant="body2" color="text.secondary">
          commented · <When at={note.created_at} />
          {changed && ' · edited'}
        </Typography>
      </Typography>
      {editing ? (
        <Box sx={{ mt: 1 }}>
          <NoteEditor initial={note.body} initialMentions={note.mentioned} busy={edited.isLoading} submitLabel="Save" onSubmit={save} onCancel={() => setEditing(false)} fieldError={error} />
        </Box>
      ) : (
        <Typography variant="body1" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'break-word', mt: 0.5 }}>
          <MarkdownText text={note.body} />
        </Typography>
      )}
      {!editing && (mine || isAdmin) && (
        <Stack direction="row" spacing={1} sx={{ mt: 0.5 }}>
          {mine && (
            <Button size="small" onClick={() => setEditing(true)} aria-label={`Edit your comment of ${formatDateTime(note.created_at)}`}>
              Edit
            </Button>
          )}
          <Button size="small" color="error" onClick={() => setDeleting(true)} aria-label={`Delete the comment of ${formatDateTime(note.created_at)}`}>
            Delete
          </Button>
        </Stack>
      )}
      <ConfirmDialog
        open={deleting}
        title="Delete this comment?"
        confirmLabel="Delete"
        danger
        busy={removed.isLoading}
        onCancel={() => setDeleting(false)}
        onConfirm={async () => {
          try {
            await remove(note.id).unwrap();
            notify.success('Comment deleted.');
          } catch (failure) {
            notify.error(apiErrorMessage(failure as ApiError));
          }
          setDeleting(false);
        }}
      >
        {mine ? 'Your comment will be removed for everyone.' : `${nameOf(note.author)}'s comment will be removed for everyone.`}
      </ConfirmDialog>
    </Box>
  );
}

function Edit({ item, fields, label }: { item: Extract<ActivityItem, { type: 'edit' | 'suggestion' }>; fields: Map<string, FieldMeta>; label: (name: string) => string }) {
  const { entry } = item;
  const changes = Object.entries(entry.changes)
    .filter(([name]) => name !== 'status')
    .map(([name, change]) => ({ name, from: historyValue(fields.get(name), change.from, new Map(), name), to: historyValue(fields.get(name), change.to, new Map(), name) }));
  const created = entry.action === 'create';
  let headline: string;
  if (item.type === 'suggestion') {
    headline = item.suggestion.how === 'merged' ? `merged a suggestion into this record` : 'accepted this record from a suggestion';
  } else {
    headline = `${ACTION_LABELS[entry.action].toLowerCase()} ${created ? 'this record' : changes.length === 0 ? 'this record' : changes.map((change) => label(change.name)).join(', ')}`;
  }
  return (
    <Box data-audit={entry.id}>
      <Typography variant="body2">
        <Box component="span" sx={{ fontWeight: 600 }}>
          {writerOf(entry)}
        </Box>{' '}
        {headline} · <When at={item.at} />
      </Typography>
      {changes.length > 0 && !created && (
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5, color: 'text.secondary' }}>
          {changes.slice(0, 8).map((change) => (
            <Typography component="li" variant="body2" key={change.name} data-change={change.name} sx={{ overflowWrap: 'break-word' }}>
              {label(change.name)}: {shortened(change.from ?? '—').text} → {shortened(change.to ?? '—').text}
            </Typography>
          ))}
          {changes.length > 8 && <Typography component="li" variant="body2">and {changes.length - 8} more fields</Typography>}
        </Box>
      )}
      {item.type === 'suggestion' && item.suggestion.sources.length > 0 && (
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5, color: 'text.secondary' }}>
          {item.suggestion.sources.map((source, index) => (
            <Typography component="li" variant="body2" key={index} sx={{ fontStyle: 'italic', overflowWrap: 'break-word' }}>
              Found in {source.source_kind.replace(/_/g, ' ')}: “{shortened(source.snippet).text}”
            </Typography>
          ))}
        </Box>
      )}
    </Box>
  );
}

const ICONS = { comment: ChatIcon, edit: EditIcon, suggestion: InboxIcon } as const;

function ActivityPageItems({ path, id, offset, fields, label, onCount }: {
  path: string;
  id: string;
  offset: number;
  fields: Map<string, FieldMeta>;
  label: (name: string) => string;
  onCount?: (count: number) => void;
}) {
  const activity = useActivityQuery({ path, id, limit: ACTIVITY_PAGE_SIZE, offset }, { refetchOnMountOrArgChange: true });
  const total = activity.data?.count;
  useEffect(() => {
    if (total !== undefined) onCount?.(total);
  }, [total, onCount]);
  if (activity.isLoading) return <LinearProgress aria-label="Loading activity" />;
  if (activity.error) return <RetryAlert onRetry={() => void activity.refetch()}>The activity could not be loaded.</RetryAlert>;
  return (
    <>
      {(activity.data?.results ?? []).map((item) => {
        const Icon = ICONS[item.type];
        return (
          <Stack component="li" key={`${item.type}-${item.id}`} data-activity={item.type} direction="row" spacing={1.5} sx={{ py: 1.5, borderTop: 1, borderColor: 'divider' }}>
            <Icon fontSize="small" color="action" aria-hidden="true" sx={{ mt: 0.25 }} />
            <Box sx={{ minWidth: 0, flex: 1 }}>
              {item.type === 'comment' ? <Comment note={item.note} /> : <Edit item={item} fields={fields} label={label} />}
            </Box>
          </Stack>
        );
      })}
    </>
  );
}

/**
 * A record's "Activity" (docs/notes.md): a comment box with @mentions, then the record's notes,
 * edits and accepted suggestions, newest first, a page at a time. Research users and admins
 * only: for anyone else the section is not there at all.
 */
export function ActivitySection({ kind, id }: { kind: string; id: string }) {
  const canResearch = useSessionSelector(selectCanResearch);
  if (!canResearch) return null;
  return <Activity kind={kind} id={id} />;
}

function Activity({ kind, id }: { kind: string; id: string }) {
  const headingId = useId();
  const { meta } = useResourceMeta(kind);
  const view = useResourceView(kind);
  const [pages, setPages] = useState(1);
  const [count, setCount] = useState<number | null>(null);
  const [add, added] = useAddNoteMutation();
  const [error, setError] = useState<string | null>(null);
  const fields = useMemo(() => new Map((meta?.fields ?? []).map((field) => [field.name, field])), [meta]);
  const label = (name: string) => (view ? fieldLabel(view, name) : (fields.get(name)?.name ?? name).replace(/_/g, ' '));
  if (!meta) return null;

  const submit = async (body: string, mentions: string[]) => {
    try {
      await add({ record: id, body, mentions }).unwrap();
      setError(null);
      return true;
    } catch (failure) {
      const errors = apiFieldErrors(failure as ApiError);
      setError(errors['body']?.[0] ?? errors['mentions']?.[0] ?? apiErrorMessage(failure as ApiError));
      return false;
    }
  };

  return (
    <Paper variant="outlined" component="section" id="activity" aria-labelledby={headingId} data-testid="activity-section" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', mb: 2 }}>
        <Typography id={headingId} variant="h5" component="h2" sx={{ fontWeight: 700 }}>
          Activity
        </Typography>
        {count !== null && <Chip size="small" label={count} aria-label={`${count} items`} />}
      </Stack>
      <NoteEditor initial="" initialMentions={[]} busy={added.isLoading} submitLabel="Comment" onSubmit={submit} fieldError={error} />
      <Box component="ol" aria-label="Activity, newest first" sx={{ listStyle: 'none', m: 0, mt: 2, p: 0 }}>
        {Array.from({ length: pages }, (_, page) => (
          <ActivityPageItems key={page} path={meta.path} id={id} offset={page * ACTIVITY_PAGE_SIZE} fields={fields} label={label} onCount={page === 0 ? setCount : undefined} />
        ))}
      </Box>
      {count !== null && count === 0 && <Typography color="text.secondary">Nothing yet: be the first to comment.</Typography>}
      {count !== null && count > pages * ACTIVITY_PAGE_SIZE && (
        <Button sx={{ mt: 1 }} onClick={() => setPages((n) => n + 1)}>
          Show older
        </Button>
      )}
    </Paper>
  );
}
