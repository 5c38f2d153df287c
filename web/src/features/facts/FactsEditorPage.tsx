import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type FocusEvent } from 'react';
import { useDispatch } from 'react-redux';
import { createNextState } from '@reduxjs/toolkit';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import { Link as RouterLink } from 'react-router';
import { apiErrorMessage, apiFieldErrors, type ApiError } from '../../api/api-error';
import { useCreateResourceMutation, useListResourceQuery, useUpdateResourceMutation, type ResourceRecord } from '../../api/resources';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { notify, truncate } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { RetryAlert } from '../../components/RetryAlert';
import { VisuallyHidden } from '../../components/VisuallyHidden';
import { INTELBOOKS_PATH } from '../../lib/paths';
import {
  CATEGORIES_PATH,
  FACTS_PATH,
  invalidateTrees,
  SECTIONS_PATH,
  useDeleteSubtreeMutation,
  useFactsReaderQuery,
  useLazySubtreeCountQuery,
  useMoveFactMutation,
  useReorderFactsMutation,
  type FactsDispatch,
  type FactTree,
  type ReaderSection,
  type Visibility,
} from './facts.api';
import { EditorContext, EditorTree, VisibilitySelect, type DropTarget, type EditorActions } from './EditorTree';
import { FactInput } from './FactInput';
import { plainText } from './markdown';
import { ShareCodesPanel } from './ShareCodesPanel';
import { ShareDialog } from './ShareDialog';
import { applyChange, dropMove, indexTrees, isWithin, keyboardMove, sectionDrop, type KeyboardMove, type TreeChange } from './tree-ops';

const nameOf = (record: ResourceRecord) => String(record['name'] ?? record.display_name ?? '');
const quoted = (text: string) => `“${truncate(plainText(text), 60)}”`;

/** The sections as their list orders them, each with its facts from the reader (none yet: no categories). */
function sectionsInOrder(records: ResourceRecord[] | undefined, reader: ReaderSection[] | undefined): ReaderSection[] {
  const byId = new Map((reader ?? []).map((section) => [section.id, section]));
  const listed = (records ?? []).map(
    (record): ReaderSection =>
      byId.get(record.id) ?? { id: record.id, name: nameOf(record), description: (record['description'] as string | null) ?? null, categories: [] },
  );
  const extra = (reader ?? []).filter((section) => !listed.some((entry) => entry.id === section.id));
  return [...listed, ...extra];
}

const MOVE_WORDS: Record<KeyboardMove, string> = { up: 'Moved up', down: 'Moved down', indent: 'Moved under the fact above', outdent: 'Moved out of its parent' };

function NewRoot({ section, categories, onDone }: { section: ReaderSection; categories: ResourceRecord[]; onDone: () => void }) {
  const [create, createState] = useCreateResourceMutation();
  const [visibility, setVisibility] = useState<Visibility>('hidden');
  const [category, setCategory] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = async (text: string) => {
    try {
      await create({ path: FACTS_PATH, body: { text, section: section.id, category: category === '' ? null : category, visibility } }).unwrap();
      notify.success('Fact added.');
      onDone();
    } catch (failure) {
      const fields = apiFieldErrors(failure as ApiError);
      setError(Object.values(fields).flat().join(' ') || apiErrorMessage(failure as ApiError));
    }
  };
  return (
    <Box sx={{ pt: 1 }}>
      <FactInput
        label={`New fact in ${section.name}`}
        saveLabel="Add"
        busy={createState.isLoading}
        error={error}
        onSave={(text) => void save(text)}
        onCancel={onDone}
        extra={
          <>
            {categories.length > 0 && (
              <Box component="label" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, typography: 'body2' }}>
                Category
                <Box component="select" value={category} onChange={(event) => setCategory((event.target as HTMLSelectElement).value)} sx={{ font: 'inherit', p: 0.5, borderRadius: 1 }}>
                  <option value="">None</option>
                  {categories.map((record) => (
                    <option key={record.id} value={record.id}>
                      {nameOf(record)}
                    </option>
                  ))}
                </Box>
              </Box>
            )}
            <VisibilitySelect value={visibility} allowed={['hidden', 'paywalled', 'public']} onChange={setVisibility} />
          </>
        }
      />
    </Box>
  );
}

/**
 * /facts — the intelbooks editor (admins): each section's fact trees, grouped by category; facts
 * added at the root or under another, edited in place, moved by drag and drop or with the
 * keyboard (Alt+arrows), their visibility changed, deleted with their subtree (its size shown
 * first) and shared; the share codes below.
 */
export function FactsEditorPage() {
  const reader = useFactsReaderQuery({});
  const sectionsList = useListResourceQuery({ path: SECTIONS_PATH, params: { limit: '100' } });
  const categoriesList = useListResourceQuery({ path: CATEGORIES_PATH, params: { limit: '100' } });
  const [move] = useMoveFactMutation();
  const [reorder] = useReorderFactsMutation();
  const [update] = useUpdateResourceMutation();
  const [create] = useCreateResourceMutation();
  const [removeSubtree, removeState] = useDeleteSubtreeMutation();
  const [countSubtree] = useLazySubtreeCountQuery();

  // Moves show at once in a local copy of the trees and go to the server one after another. The
  // server's trees replace the copy once no move is waiting and they were asked for after the
  // last move was answered (a refetch started earlier would undo the moves made since).
  const [moved, setMoved] = useState<ReaderSection[] | null>(null);
  const [sending, setSending] = useState(false);
  const answeredAt = useRef(0);
  const serverFresh = !sending && !reader.isFetching && (reader.startedTimeStamp ?? 0) >= answeredAt.current;
  const trees = (serverFresh ? null : moved) ?? reader.data?.sections;
  const sections = useMemo(() => sectionsInOrder(sectionsList.data?.results, trees), [sectionsList.data, trees]);
  const index = useMemo(() => indexTrees(trees ?? []), [trees]);
  // The server caught up: the copy goes (a later refetch must not bring it back). Only that
  // copy: a move made between this render and the effect has made a newer one, which stays.
  useEffect(() => {
    if (serverFresh && moved) setMoved((current) => (current === moved ? null : current));
  }, [serverFresh, moved]);
  // An answer to a refetch asked for before the last move was answered: ask again.
  const { refetch } = reader;
  useEffect(() => {
    if (!sending && !reader.isFetching && reader.data && (reader.startedTimeStamp ?? 0) < answeredAt.current) void refetch();
  }, [sending, reader.isFetching, reader.data, reader.startedTimeStamp, refetch]);
  const categories = categoriesList.data?.results ?? [];

  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditingState] = useState<string | null>(null);
  const [adding, setAddingState] = useState<string | null>(null);
  const [addingRoot, setAddingRoot] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [inputError, setInputError] = useState<string | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropTarget, setDropTarget] = useState<DropTarget | null>(null);
  const [sectionTarget, setSectionTarget] = useState<string | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [deleting, setDeleting] = useState<{ fact: FactTree; count: number } | null>(null);
  const [sharing, setSharing] = useState<FactTree | null>(null);

  // A moved fact keeps the focus once the trees come back from the server: given back when the
  // move lost it (a row moved in the DOM is blurred), never taken from where the user put it
  // since (taking it would scroll the page under a pointer starting a drag).
  useEffect(() => {
    if (!focusId) return;
    const row = document.querySelector<HTMLElement>(`[data-editor-fact="${CSS.escape(focusId)}"]`);
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (row && lost) row.focus();
  }, [trees, focusId]);

  const expand = useCallback((id: string) => setCollapsed((current) => (current.has(id) ? new Set([...current].filter((entry) => entry !== id)) : current)), []);

  const dispatch = useDispatch<FactsDispatch>();
  // After a refused move the ones queued behind it (worked out from trees the server does not
  // have) are dropped, and the refetch shows the truth.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const pending = useRef(0);
  const generation = useRef(0);
  const send = useCallback(
    async (change: TreeChange) => {
      if (change.kind === 'reorder') {
        await reorder({ parent: change.parent, ...(change.section ? { section: change.section } : {}), ids: change.ids }).unwrap();
        return;
      }
      await move({ id: change.id, parent: change.parent, position: change.position, ...(change.section ? { section: change.section } : {}) }).unwrap();
      if (change.category !== undefined) await update({ path: FACTS_PATH, id: change.id, body: { category: change.category } }).unwrap();
    },
    [move, reorder, update],
  );
  const apply = (change: TreeChange, message: string) => {
    setFocusId(change.id);
    if (change.kind === 'move' && change.parent) expand(change.parent);
    if (trees) setMoved(createNextState(trees, (draft) => void applyChange(draft, change)));
    setAnnouncement(message);
    const round = generation.current;
    pending.current += 1;
    setSending(true);
    queue.current = queue.current.then(async () => {
      try {
        if (round === generation.current) await send(change);
      } catch (failure) {
        generation.current += 1;
        notify.error(`Could not move the fact: ${apiErrorMessage(failure as ApiError)}`);
      } finally {
        pending.current -= 1;
        if (pending.current === 0) {
          answeredAt.current = Date.now();
          setSending(false);
          dispatch(invalidateTrees());
        }
      }
    });
  };

  const setEditing = (id: string | null) => {
    setEditingState(id);
    setAddingState(null);
    setInputError(null);
  };
  const setAdding = (id: string | null) => {
    setAddingState(id);
    setEditingState(null);
    setInputError(null);
    if (id) expand(id);
  };
  const endDrag = () => {
    setDragging(null);
    setDropTarget(null);
    setSectionTarget(null);
  };

  const editor: EditorActions = {
    index,
    collapsed,
    toggle: (id) =>
      setCollapsed((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    editing,
    setEditing,
    adding,
    setAdding,
    saving,
    inputError,
    dragging,
    dropTarget,
    keyMove: (id, direction) => {
      const change = keyboardMove(index, id, direction);
      if (!change) {
        setAnnouncement('It cannot move that way.');
        return;
      }
      apply(change, MOVE_WORDS[direction]);
    },
    dragStart: (id) => {
      setDragging(id);
      setEditingState(null);
    },
    dragOver: (target) => {
      setSectionTarget(null);
      setDropTarget(target && dragging && !isWithin(index, target.id, dragging) ? target : null);
    },
    drop: (target) => {
      const id = dragging;
      endDrag();
      if (!id) return;
      const change = dropMove(index, id, target.id, target.zone);
      if (change) apply(change, 'Moved.');
    },
    dragEnd: endDrag,
    saveText: (id, text) => {
      setSaving(true);
      update({ path: FACTS_PATH, id, body: { text } })
        .unwrap()
        .then(() => {
          setEditingState(null);
          setFocusId(id);
          notify.success('Fact saved.');
        })
        .catch((failure: ApiError) => setInputError(apiFieldErrors(failure)['text']?.join(' ') ?? apiErrorMessage(failure)))
        .finally(() => setSaving(false));
    },
    addChild: (parent, text, visibility) => {
      setSaving(true);
      create({ path: FACTS_PATH, body: { text, parent, visibility } })
        .unwrap()
        .then(() => {
          setAddingState(null);
          expand(parent);
          notify.success('Fact added.');
        })
        .catch((failure: ApiError) => {
          const fields = apiFieldErrors(failure);
          setInputError(Object.values(fields).flat().join(' ') || apiErrorMessage(failure));
        })
        .finally(() => setSaving(false));
    },
    setVisibility: (fact, visibility) => {
      update({ path: FACTS_PATH, id: fact.id, body: { visibility } })
        .unwrap()
        .then(() => notify.success(`${quoted(fact.text)} is now ${visibility}${fact.children.length > 0 && visibility !== 'public' ? ', and the facts under it no more than that' : ''}.`))
        .catch((failure: ApiError) => notify.error(`Could not change the visibility: ${apiFieldErrors(failure)['visibility']?.join(' ') ?? apiErrorMessage(failure)}`));
    },
    askDelete: (fact) => {
      countSubtree(fact.id)
        .unwrap()
        .then(({ count }) => setDeleting({ fact, count }))
        .catch((failure: ApiError) => notify.error(`Could not count the facts to delete: ${apiErrorMessage(failure)}`));
    },
    askShare: setSharing,
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await removeSubtree(deleting.fact.id).unwrap();
      notify.success(deleting.count === 1 ? 'Fact deleted.' : `${deleting.count.toLocaleString('en-GB')} facts deleted.`);
      setDeleting(null);
    } catch (failure) {
      notify.error(`Could not delete: ${apiErrorMessage(failure as ApiError)}`);
    }
  };

  const sectionDropProps = (sectionId: string) => ({
    onDragOver: (event: DragEvent<HTMLElement>) => {
      if (!dragging) return;
      event.preventDefault();
      setDropTarget(null);
      setSectionTarget(sectionId);
    },
    onDragLeave: (event: DragEvent<HTMLElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setSectionTarget(null);
    },
    onDrop: (event: DragEvent<HTMLElement>) => {
      event.preventDefault();
      const id = dragging;
      endDrag();
      const change = id ? sectionDrop(index, id, sectionId) : null;
      if (change) apply(change, 'Moved to the end of the section.');
    },
  });

  const error = reader.error ?? sectionsList.error;
  const loading = reader.isLoading || sectionsList.isLoading;
  return (
    <Stack spacing={3}>
      <Stack direction="row" useFlexGap sx={{ gap: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <PageHeading>Intelbooks editor</PageHeading>
        <Stack direction="row" useFlexGap sx={{ gap: 1, flexWrap: 'wrap' }}>
          <Button variant="outlined" startIcon={<MenuBookOutlinedIcon />} component={RouterLink} to={INTELBOOKS_PATH}>
            Open the reader
          </Button>
          <Button variant="outlined" component={RouterLink} to="/sections">
            Sections
          </Button>
          <Button variant="outlined" component={RouterLink} to="/categories">
            Categories
          </Button>
          <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/facts/create">
            New fact
          </Button>
        </Stack>
      </Stack>
      <Typography id="editor-keys" variant="body2" color="text.secondary">
        Select a fact, then Alt+↑ or Alt+↓ moves it among its siblings, Alt+→ puts it under the fact above, Alt+← takes it out of its parent, and Enter edits
        its text. Or drag it: onto the top or bottom edge of another fact to place it before or after, onto its middle to put it inside, onto a section&apos;s
        heading to end that section.
      </Typography>
      <VisuallyHidden>
        <span role="status" aria-live="polite">
          {announcement}
        </span>
      </VisuallyHidden>
      {/* The bar's place is kept while idle: the trees never jump under a pointer as saves come and go. */}
      <Box sx={{ height: 4 }}>
        {(loading || sending || reader.isFetching) && <LinearProgress aria-label={sending ? 'Saving the moves' : 'Loading the facts'} />}
      </Box>
      {error && <RetryAlert onRetry={() => void Promise.all([reader.refetch(), sectionsList.refetch()])}>{apiErrorMessage(error)}</RetryAlert>}
      {!loading && !error && sections.length === 0 && (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography sx={{ mb: 2 }}>Facts are written in sections, the reader&apos;s headings: add a section first.</Typography>
          <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/sections/create">
            New section
          </Button>
        </Paper>
      )}
      <EditorContext.Provider value={editor}>
        <Stack
          spacing={3}
          onFocus={(event: FocusEvent<HTMLElement>) => {
            if (focusId && !(event.target as HTMLElement).closest(`[data-editor-fact="${CSS.escape(focusId)}"]`)) setFocusId(null);
          }}
        >
          {sections.map((section) => {
            const groups = section.categories.filter((category) => category.facts.length > 0);
            const headingId = `editor-section-${section.id}`;
            return (
              <Paper key={section.id} variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 1.5, sm: 2.5 } }} data-testid="editor-section">
                <Box
                  {...sectionDropProps(section.id)}
                  sx={{
                    display: 'flex',
                    alignItems: 'center',
                    justifyContent: 'space-between',
                    gap: 2,
                    flexWrap: 'wrap',
                    mb: 1,
                    borderRadius: 1,
                    outline: sectionTarget === section.id ? '2px dashed' : 'none',
                    outlineColor: 'primary.main',
                  }}
                >
                  <Box sx={{ minWidth: 0 }}>
                    <Typography id={headingId} variant="h6" component="h2" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
                      {section.name}
                    </Typography>
                    {section.description && (
                      <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-line' }}>
                        {section.description}
                      </Typography>
                    )}
                  </Box>
                  <Button size="small" startIcon={<AddIcon />} onClick={() => setAddingRoot(section.id)} disabled={addingRoot === section.id}>
                    Add a fact
                  </Button>
                </Box>
                {groups.length === 0 && addingRoot !== section.id && (
                  <Typography color="text.secondary" variant="body2" {...sectionDropProps(section.id)} sx={{ py: 1 }}>
                    No facts in this section yet.
                  </Typography>
                )}
                <Stack spacing={1.5}>
                  {groups.map((category) => (
                    <Box key={category.id ?? 'none'}>
                      {(category.id !== null || groups.length > 1) && (
                        <Typography variant="subtitle2" component="h3" sx={{ color: 'primary.dark', fontWeight: 700, mb: 0.5 }}>
                          {category.id === null ? 'No category' : (category.name ?? 'Unnamed category')}
                        </Typography>
                      )}
                      <EditorTree facts={category.facts} />
                    </Box>
                  ))}
                </Stack>
                {addingRoot === section.id && <NewRoot section={section} categories={categories} onDone={() => setAddingRoot(null)} />}
              </Paper>
            );
          })}
        </Stack>
      </EditorContext.Provider>
      <ShareCodesPanel />
      <ConfirmDialog
        open={deleting !== null}
        title={deleting && deleting.count > 1 ? `Delete ${deleting.count.toLocaleString('en-GB')} facts?` : 'Delete this fact?'}
        confirmLabel={deleting && deleting.count > 1 ? `Delete ${deleting.count.toLocaleString('en-GB')} facts` : 'Delete'}
        danger
        busy={removeState.isLoading}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        {deleting &&
          (deleting.count > 1
            ? `${quoted(deleting.fact.text)} and the ${(deleting.count - 1).toLocaleString('en-GB')} ${deleting.count === 2 ? 'fact' : 'facts'} under it will be deleted, with their share links.`
            : `${quoted(deleting.fact.text)} will be deleted, with its share links.`)}
      </ConfirmDialog>
      <ShareDialog fact={sharing} onClose={() => setSharing(null)} />
    </Stack>
  );
}
