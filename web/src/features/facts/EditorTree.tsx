import { createContext, useContext, useState, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import AddIcon from '@mui/icons-material/Add';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import EditIcon from '@mui/icons-material/EditOutlined';
import EditNoteIcon from '@mui/icons-material/EditNote';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import ShareIcon from '@mui/icons-material/Share';
import { Link as RouterLink } from 'react-router';
import { VISIBILITY_OPTIONS } from '../../components/VisibilityChip';
import type { FactTree, Visibility } from './facts.api';
import { factEditPath } from './facts.view';
import { FactInput } from './FactInput';
import { FactText } from './FactText';
import { plainText } from './markdown';
import type { DropZone, KeyboardMove, TreeIndex } from './tree-ops';

/** Where a dragged fact would land now. */
export interface DropTarget {
  id: string;
  zone: DropZone;
}

/** What every row of the editor reads and does; the page provides it. */
export interface EditorActions {
  index: TreeIndex;
  collapsed: ReadonlySet<string>;
  toggle: (id: string) => void;
  editing: string | null;
  setEditing: (id: string | null) => void;
  adding: string | null;
  setAdding: (id: string | null) => void;
  saving: boolean;
  inputError: string | null;
  dragging: string | null;
  dropTarget: DropTarget | null;
  keyMove: (id: string, move: KeyboardMove) => void;
  dragStart: (id: string) => void;
  dragOver: (target: DropTarget | null) => void;
  drop: (target: DropTarget) => void;
  dragEnd: () => void;
  saveText: (id: string, text: string) => void;
  addChild: (parent: string, text: string, visibility: Visibility) => void;
  setVisibility: (fact: FactTree, visibility: Visibility) => void;
  askDelete: (fact: FactTree) => void;
  askShare: (fact: FactTree) => void;
}

export const EditorContext = createContext<EditorActions | null>(null);

function useEditor(): EditorActions {
  const editor = useContext(EditorContext);
  if (!editor) throw new Error('EditorTree needs an EditorContext');
  return editor;
}

const RANK: Record<Visibility, number> = { hidden: 0, paywalled: 1, public: 2 };

/** The visibility a fact may have under its parent: never more than the parent's. */
export function allowedUnder(parent: Visibility | null): Visibility[] {
  return (['hidden', 'paywalled', 'public'] as const).filter((value) => parent === null || RANK[value] <= RANK[parent]);
}

const MOVES: Record<string, KeyboardMove> = { ArrowUp: 'up', ArrowDown: 'down', ArrowRight: 'indent', ArrowLeft: 'outdent' };

/** A visibility chip that opens a menu of the visibilities the fact may take. */
function VisibilityControl({ fact, parentVisibility }: { fact: FactTree; parentVisibility: Visibility | null }) {
  const editor = useEditor();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const option = VISIBILITY_OPTIONS.find((entry) => entry.value === fact.visibility);
  const allowed = allowedUnder(parentVisibility);
  return (
    <>
      <Chip
        size="small"
        variant="outlined"
        color={option?.color ?? 'default'}
        icon={option?.icon}
        label={option?.label ?? fact.visibility}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        aria-haspopup="menu"
        aria-label={`Visibility: ${option?.label ?? fact.visibility}. Change`}
        data-testid="fact-visibility"
        sx={{ flexShrink: 0 }}
      />
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {VISIBILITY_OPTIONS.map((entry) => {
          const value = entry.value as Visibility;
          const refused = !allowed.includes(value);
          return (
            <MenuItem
              key={value}
              selected={value === fact.visibility}
              disabled={refused}
              onClick={() => {
                setAnchor(null);
                if (value !== fact.visibility) editor.setVisibility(fact, value);
              }}
            >
              <ListItemIcon>{entry.icon}</ListItemIcon>
              <ListItemText
                primary={entry.label}
                secondary={refused ? 'Not above its parent' : value === 'hidden' || RANK[value] < RANK[fact.visibility] ? `${entry.description}; the facts under it too` : entry.description}
              />
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}

function RowMenu({ fact }: { fact: FactTree }) {
  const editor = useEditor();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <Tooltip title="More">
        <IconButton size="small" aria-label={`More for “${plainText(fact.text).slice(0, 60)}”`} aria-haspopup="menu" onClick={(event) => setAnchor(event.currentTarget)}>
          <MoreVertIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        <MenuItem component={RouterLink} to={factEditPath(fact.id)} onClick={close}>
          <ListItemIcon>
            <EditNoteIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary="Edit all fields" secondary="Sources, mentions, dates" />
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            editor.askShare(fact);
          }}
        >
          <ListItemIcon>
            <ShareIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary="Share…" secondary="A link to this fact and those under it" />
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            editor.askDelete(fact);
          }}
          sx={{ color: 'error.main' }}
        >
          <ListItemIcon sx={{ color: 'inherit' }}>
            <DeleteIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary="Delete…" secondary="With the facts under it" />
        </MenuItem>
      </Menu>
    </>
  );
}

/** The drop zone a pointer is over: the top quarter of a row puts the fact before it, the bottom quarter after it, the middle inside it. */
function zoneAt(event: DragEvent<HTMLElement>): DropZone {
  const rect = event.currentTarget.getBoundingClientRect();
  const y = event.clientY - rect.top;
  if (y < rect.height * 0.25) return 'before';
  if (y > rect.height * 0.75) return 'after';
  return 'inside';
}

/** How a row shows where a drop would put the fact: a line above or below it, or a frame around it. */
function dropStyle(zone: DropZone | undefined, color: string) {
  if (zone === 'before') return { boxShadow: `inset 0 3px 0 ${color}` };
  if (zone === 'after') return { boxShadow: `inset 0 -3px 0 ${color}` };
  if (zone === 'inside') return { outline: `2px dashed ${color}`, bgcolor: 'action.hover' };
  return {};
}

function EditorNode({ fact, parentVisibility, depth }: { fact: FactTree; parentVisibility: Visibility | null; depth: number }) {
  const editor = useEditor();
  const theme = useTheme();
  const hasChildren = fact.children.length > 0;
  const open = !editor.collapsed.has(fact.id);
  const editing = editor.editing === fact.id;
  const adding = editor.adding === fact.id;
  const text = plainText(fact.text);
  const zone = editor.dropTarget?.id === fact.id ? editor.dropTarget.zone : undefined;
  const place = editor.index.facts.get(fact.id);
  const position = place ? `${place.shown.indexOf(fact.id) + 1} of ${place.shown.length}` : '';

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.target !== event.currentTarget) return;
    const move = event.altKey ? MOVES[event.key] : undefined;
    if (move) {
      event.preventDefault();
      editor.keyMove(fact.id, move);
    } else if (event.key === 'Enter' || event.key === 'F2') {
      event.preventDefault();
      editor.setEditing(fact.id);
    }
  };

  return (
    <Box component="li" sx={{ listStyle: 'none' }} data-testid="editor-fact">
      <Box
        data-editor-fact={fact.id}
        tabIndex={0}
        draggable={!editing}
        aria-label={`${text.slice(0, 120)}. Level ${depth}, ${position}.`}
        aria-describedby="editor-keys"
        onKeyDown={onKeyDown}
        onDragStart={(event) => {
          event.stopPropagation();
          event.dataTransfer.effectAllowed = 'move';
          event.dataTransfer.setData('text/plain', fact.id);
          editor.dragStart(fact.id);
        }}
        onDragOver={(event) => {
          if (!editor.dragging) return;
          event.preventDefault();
          event.stopPropagation();
          event.dataTransfer.dropEffect = 'move';
          const next = zoneAt(event);
          if (zone !== next) editor.dragOver({ id: fact.id, zone: next });
        }}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null) && zone) editor.dragOver(null);
        }}
        onDrop={(event) => {
          event.preventDefault();
          event.stopPropagation();
          editor.drop({ id: fact.id, zone: zoneAt(event) });
        }}
        onDragEnd={editor.dragEnd}
        sx={{
          display: 'flex',
          alignItems: 'flex-start',
          // On a phone the buttons go under the text rather than squeezing it.
          flexWrap: { xs: 'wrap', sm: 'nowrap' },
          gap: 0.5,
          py: 0.25,
          pr: 0.5,
          borderRadius: 1,
          opacity: editor.dragging === fact.id ? 0.45 : 1,
          '&:hover': { bgcolor: 'action.hover' },
          '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 1 },
          ...dropStyle(zone, theme.palette.primary.main),
        }}
      >
        <Box aria-hidden="true" sx={{ color: 'text.disabled', cursor: 'grab', display: 'flex', pt: '5px', flexShrink: 0 }}>
          <DragIndicatorIcon fontSize="small" />
        </Box>
        {hasChildren ? (
          <IconButton size="small" aria-expanded={open} aria-label={open ? 'Collapse' : 'Expand'} onClick={() => editor.toggle(fact.id)} sx={{ p: '3px', mt: '2px' }}>
            {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
          </IconButton>
        ) : (
          <Box aria-hidden="true" sx={{ width: 26, flexShrink: 0, textAlign: 'center', color: 'primary.main', pt: '4px' }}>
            •
          </Box>
        )}
        {editing ? (
          <FactInput
            label="Fact"
            initial={fact.text}
            saveLabel="Save"
            busy={editor.saving}
            error={editor.inputError}
            onSave={(next) => editor.saveText(fact.id, next)}
            onCancel={() => editor.setEditing(null)}
          />
        ) : (
          <>
            <Typography
              component="div"
              sx={{ flex: '1 1 0', minWidth: { xs: 'calc(100% - 64px)', sm: 0 }, overflowWrap: 'anywhere', pt: '5px' }}
              data-testid="editor-fact-text"
            >
              <FactText text={fact.text} />
            </Typography>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.25, flexShrink: 0, ml: 'auto', justifyContent: 'flex-end', pt: '2px' }}>
              <VisibilityControl fact={fact} parentVisibility={parentVisibility} />
              <Tooltip title="Add a fact under it">
                <IconButton size="small" aria-label={`Add a fact under “${text.slice(0, 60)}”`} onClick={() => editor.setAdding(fact.id)}>
                  <AddIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              <Tooltip title="Edit the text (Enter)">
                <IconButton size="small" aria-label={`Edit “${text.slice(0, 60)}”`} onClick={() => editor.setEditing(fact.id)}>
                  <EditIcon fontSize="small" />
                </IconButton>
              </Tooltip>
              <RowMenu fact={fact} />
            </Box>
          </>
        )}
      </Box>
      {(hasChildren || adding) && (
        <Box hidden={!open && !adding} sx={{ pl: { xs: 2, sm: 3.5 } }}>
          {hasChildren && open && <EditorTree facts={fact.children} parentVisibility={fact.visibility} depth={depth + 1} />}
          {adding && <NewChild parent={fact} />}
        </Box>
      )}
    </Box>
  );
}

/** The visibility a new fact starts with, among those it may have. */
export function VisibilitySelect({ value, allowed, onChange }: { value: Visibility; allowed: Visibility[]; onChange: (value: Visibility) => void }) {
  return (
    <Box component="label" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, typography: 'body2' }}>
      Visibility
      <Box
        component="select"
        value={value}
        onChange={(event) => onChange((event.target as HTMLSelectElement).value as Visibility)}
        sx={{ font: 'inherit', p: 0.5, borderRadius: 1, borderColor: 'divider' }}
      >
        {allowed.map((option) => (
          <option key={option} value={option}>
            {VISIBILITY_OPTIONS.find((entry) => entry.value === option)?.label ?? option}
          </option>
        ))}
      </Box>
    </Box>
  );
}

function NewChild({ parent }: { parent: FactTree }) {
  const editor = useEditor();
  const allowed = allowedUnder(parent.visibility);
  const [visibility, setVisibility] = useState<Visibility>('hidden');
  return (
    <Box sx={{ pl: 4, py: 0.5 }}>
      <FactInput
        label={`New fact under “${plainText(parent.text).slice(0, 50)}”`}
        saveLabel="Add"
        busy={editor.saving}
        error={editor.inputError}
        extra={<VisibilitySelect value={visibility} allowed={allowed} onChange={setVisibility} />}
        onSave={(text) => editor.addChild(parent.id, text, visibility)}
        onCancel={() => editor.setAdding(null)}
      />
    </Box>
  );
}

/** A list of facts in the editor, each with its children, moves, edits and menu. */
export function EditorTree({ facts, parentVisibility = null, depth = 1 }: { facts: FactTree[]; parentVisibility?: Visibility | null; depth?: number }) {
  return (
    <Box component="ul" sx={{ m: 0, p: 0 }}>
      {facts.map((fact) => (
        <EditorNode key={fact.id} fact={fact} parentVisibility={parentVisibility} depth={depth} />
      ))}
    </Box>
  );
}
