import { useId, useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import BookmarksOutlinedIcon from '@mui/icons-material/BookmarksOutlined';
import CheckIcon from '@mui/icons-material/Check';
import GroupsOutlinedIcon from '@mui/icons-material/GroupsOutlined';
import StarIcon from '@mui/icons-material/Star';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage, apiFieldErrors } from '../../api/api-error';
import { useCreateResourceMutation, useRemoveResourceMutation, useUpdateResourceMutation } from '../../api/resources';
import { SAVED_VIEWS_PATH, useClearDefaultViewMutation, useMakeDefaultViewMutation, type SavedView } from '../../api/saved-views';
import { selectSession, useSessionSelector } from '../../lib/session';
import { ConfirmDialog } from '../ConfirmDialog';
import { notify } from '../notify';
import type { TableView } from './table-view';

type ApiFailure = Parameters<typeof apiErrorMessage>[0];

interface NameDialogState {
  mode: 'save' | 'rename';
  name: string;
  shared: boolean;
  makeDefault: boolean;
  error: string | null;
}

/**
 * The "Views" menu of a resource list (docs/web.md "Saved views"): the table's saved views —
 * the user's own and those the team shares — to open; save what the table shows as a new view;
 * and for the view shown: update it with the table's settings, rename, share or stop sharing,
 * delete (its owner), make it or stop it being the user's default (anyone who reads it). A
 * chip beside the button names the view shown, and says when the table differs from it.
 */
export function ViewsMenu({ meta, table }: { meta: ResourceMeta; table: TableView }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<NameDialogState | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const menuId = useId();
  const userId = useSessionSelector(selectSession).id;
  const [createView, creating] = useCreateResourceMutation();
  const [updateView, updating] = useUpdateResourceMutation();
  const [removeView, removing] = useRemoveResourceMutation();
  const [makeDefault] = useMakeDefaultViewMutation();
  const [clearDefault] = useClearDefaultViewMutation();
  if (!table.enabled) return null;

  const { active, modified, views } = table;
  const own = active !== null && active.owner_id === userId;
  const mine = views.filter((view) => view.owner_id === userId);
  const team = views.filter((view) => view.owner_id !== userId);
  const close = () => setAnchor(null);
  const failed = (what: string, error: unknown) => notify.error(`${what} failed: ${apiErrorMessage(error as ApiFailure)}`);

  const open = (view: SavedView) => {
    close();
    table.apply(view);
  };
  const update = async () => {
    close();
    if (!active) return;
    try {
      const saved = (await updateView({ path: SAVED_VIEWS_PATH, id: active.id, body: { state: table.current() } }).unwrap()) as unknown as SavedView;
      table.apply(saved, { replace: true });
      notify.success(`Updated the view “${saved.name}”.`);
    } catch (error) {
      failed('Updating the view', error);
    }
  };
  const toggleShared = async () => {
    close();
    if (!active) return;
    try {
      await updateView({ path: SAVED_VIEWS_PATH, id: active.id, body: { shared: !active.shared } }).unwrap();
      notify.success(active.shared ? `“${active.name}” is yours alone again.` : `“${active.name}” is shared with the team.`);
    } catch (error) {
      failed('Sharing the view', error);
    }
  };
  const toggleDefault = async () => {
    close();
    if (!active) return;
    try {
      if (active.is_default) await clearDefault(active.id).unwrap();
      else await makeDefault(active.id).unwrap();
      notify.success(active.is_default ? `“${active.name}” is no longer your default.` : `This list now opens with “${active.name}” for you.`);
    } catch (error) {
      failed('Changing your default view', error);
    }
  };
  const remove = async () => {
    if (!active) return;
    try {
      await removeView({ path: SAVED_VIEWS_PATH, id: active.id }).unwrap();
      setConfirmDelete(false);
      table.clear();
      notify.success(`Deleted the view “${active.name}”.`);
    } catch (error) {
      failed('Deleting the view', error);
    }
  };
  const submitName = async () => {
    if (!dialog) return;
    const name = dialog.name.trim();
    if (name === '') return setDialog({ ...dialog, error: 'Give the view a name.' });
    try {
      if (dialog.mode === 'rename' && active) {
        await updateView({ path: SAVED_VIEWS_PATH, id: active.id, body: { name } }).unwrap();
        notify.success(`Renamed the view “${name}”.`);
      } else {
        const body = { name, resource: meta.kind, shared: dialog.shared, state: table.current() };
        let saved = (await createView({ path: SAVED_VIEWS_PATH, body }).unwrap()) as unknown as SavedView;
        if (dialog.makeDefault) saved = await makeDefault(saved.id).unwrap();
        table.apply(saved, { replace: true });
        notify.success(`Saved the view “${name}”.`);
      }
      setDialog(null);
    } catch (error) {
      const fields = apiFieldErrors(error as ApiFailure);
      setDialog({ ...dialog, error: fields['name']?.[0] ?? apiErrorMessage(error as ApiFailure) });
    }
  };

  const item = (view: SavedView) => (
    <MenuItem key={view.id} onClick={() => open(view)} selected={view.id === active?.id} dense>
      <ListItemIcon>{view.id === active?.id ? <CheckIcon fontSize="small" /> : null}</ListItemIcon>
      <ListItemText
        primary={view.name}
        secondary={[view.is_default ? 'Your default' : null, view.shared && view.owner_id === userId ? 'Shared' : null].filter(Boolean).join(' · ') || undefined}
      />
      {view.is_default && <StarIcon fontSize="small" sx={{ ml: 1, color: 'primary.main' }} aria-label="your default" />}
      {view.shared && <GroupsOutlinedIcon fontSize="small" sx={{ ml: 1, color: 'text.secondary' }} aria-label="shared with the team" />}
    </MenuItem>
  );

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      {active && (
        <Chip
          color="primary"
          variant="outlined"
          label={modified ? `${active.name} (edited)` : active.name}
          title={modified ? 'The table differs from this view: update it from the Views menu' : `Showing the view “${active.name}”`}
          aria-label={`View: ${active.name}${modified ? ', edited' : ''}`}
          onDelete={table.clear}
          data-testid="active-view"
        />
      )}
      <Button
        variant="outlined"
        startIcon={<BookmarksOutlinedIcon />}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Views
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={close} slotProps={{ paper: { sx: { maxHeight: 520, minWidth: 280 } } }}>
        {mine.length > 0 && <ListSubheader>Your views</ListSubheader>}
        {mine.map(item)}
        {team.length > 0 && <ListSubheader>Shared by the team</ListSubheader>}
        {team.map(item)}
        {views.length === 0 && (
          <MenuItem disabled dense>
            <ListItemText inset>No saved views yet</ListItemText>
          </MenuItem>
        )}
        <Divider />
        <MenuItem onClick={() => { close(); setDialog({ mode: 'save', name: '', shared: false, makeDefault: false, error: null }); }} dense>
          <ListItemText inset>Save current view as…</ListItemText>
        </MenuItem>
        {own && (
          <MenuItem onClick={update} disabled={!modified || updating.isLoading} dense>
            <ListItemText inset>Update “{active.name}”</ListItemText>
          </MenuItem>
        )}
        {own && (
          <MenuItem onClick={() => { close(); setDialog({ mode: 'rename', name: active.name, shared: active.shared, makeDefault: false, error: null }); }} dense>
            <ListItemText inset>Rename…</ListItemText>
          </MenuItem>
        )}
        {own && (
          <MenuItem role="menuitemcheckbox" aria-checked={active.shared} onClick={toggleShared} dense>
            <ListItemIcon>
              <Checkbox edge="start" size="small" checked={active.shared} tabIndex={-1} disableRipple slotProps={{ input: { 'aria-hidden': true } }} />
            </ListItemIcon>
            <ListItemText>Shared with the team</ListItemText>
          </MenuItem>
        )}
        {active && (
          <MenuItem role="menuitemcheckbox" aria-checked={active.is_default} onClick={toggleDefault} dense>
            <ListItemIcon>
              <Checkbox edge="start" size="small" checked={active.is_default} tabIndex={-1} disableRipple slotProps={{ input: { 'aria-hidden': true } }} />
            </ListItemIcon>
            <ListItemText>My default view</ListItemText>
          </MenuItem>
        )}
        {own && (
          <MenuItem onClick={() => { close(); setConfirmDelete(true); }} dense sx={{ color: 'error.main' }}>
            <ListItemText inset>Delete view…</ListItemText>
          </MenuItem>
        )}
        {active && (
          <MenuItem onClick={() => { close(); table.clear(); }} dense>
            <ListItemText inset>Show the list without a view</ListItemText>
          </MenuItem>
        )}
      </Menu>

      <Dialog open={dialog !== null} onClose={() => setDialog(null)} fullWidth maxWidth="xs">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submitName();
          }}
        >
          <DialogTitle>{dialog?.mode === 'rename' ? 'Rename the view' : 'Save the current view'}</DialogTitle>
          <DialogContent>
            <Stack spacing={1} sx={{ pt: 1 }}>
              <TextField
                label="Name"
                value={dialog?.name ?? ''}
                onChange={(event) => dialog && setDialog({ ...dialog, name: event.target.value, error: null })}
                error={Boolean(dialog?.error)}
                helperText={dialog?.error ?? (dialog?.mode === 'save' ? 'Saves the search, filters, ordering, columns, density and grouping.' : ' ')}
                // Checked on save with a message of its own, not by the browser's bubble.
                slotProps={{ htmlInput: { maxLength: 100, 'aria-required': true } }}
                autoFocus
              />
              {dialog?.mode === 'save' && (
                <>
                  <FormControlLabel
                    control={<Checkbox checked={dialog.shared} onChange={(event) => setDialog({ ...dialog, shared: event.target.checked })} />}
                    label="Share with the team (research users and admins)"
                  />
                  <FormControlLabel
                    control={<Checkbox checked={dialog.makeDefault} onChange={(event) => setDialog({ ...dialog, makeDefault: event.target.checked })} />}
                    label="Make it my default view of this list"
                  />
                </>
              )}
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setDialog(null)}>Cancel</Button>
            <Button type="submit" variant="contained" disabled={creating.isLoading || updating.isLoading}>
              {dialog?.mode === 'rename' ? 'Rename' : 'Save'}
            </Button>
          </DialogActions>
        </form>
      </Dialog>

      <ConfirmDialog
        open={confirmDelete}
        title="Delete this view?"
        confirmLabel="Delete"
        danger
        busy={removing.isLoading}
        onConfirm={remove}
        onCancel={() => setConfirmDelete(false)}
      >
        {active ? `“${active.name}” is deleted for everyone${active.shared ? ' on the team' : ''}; the records it shows stay.` : ''}
      </ConfirmDialog>
    </Stack>
  );
}
