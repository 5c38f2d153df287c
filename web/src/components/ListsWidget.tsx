import { useId, useMemo } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import PlaylistAddCheckIcon from '@mui/icons-material/PlaylistAddCheck';
import { Link as RouterLink } from 'react-router';
import type { RelatedRef, ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage, type ApiError } from '../api/api-error';
import {
  useRelationOptionsQuery,
  useResourceMeta,
  useUpdateResourceMutation,
  type RelationTarget,
  type ResourceRecord,
} from '../api/resources';
import { notify, truncate } from './notify';
import { recordHref } from './record-links';
import { RecordPicker } from './RelationField';

/** A list a record is in, as records present them (`lists_as_item`). */
export interface ListMembership {
  id: string;
  name: string;
  slug: string;
  kind: string;
}

const LIST_NOUNS: Record<string, string> = {
  OrganizationsList: 'organizations lists',
  PeopleList: 'people lists',
  LedgerList: 'ledger lists',
  LibraryList: 'library lists',
};

/** The lists a record is in, from the record. */
export function listsOf(record: ResourceRecord): ListMembership[] {
  return (record['lists_as_item'] as ListMembership[] | undefined) ?? [];
}

interface ListsWidgetProps {
  meta: ResourceMeta;
  record: ResourceRecord;
  /** Whether the user may change the record (and so its list memberships). */
  canWrite: boolean;
}

/**
 * The lists a record is in (its resource has a `list_kind`), each linking to the list's page;
 * writers add the record to a list of that kind or take it out. The record is saved with its
 * new `lists` (the server replaces its memberships). Without a lists resource on the server the
 * memberships are still shown and adding is switched off.
 */
export function ListsWidget({ meta, record, canWrite }: ListsWidgetProps) {
  const headingId = useId();
  const listKind = meta.list_kind ?? '';
  const listsMeta = useResourceMeta('lists').meta;
  const target = useMemo<RelationTarget>(
    () => ({ kind: 'lists', type: listsMeta?.type ?? 'List', label: listsMeta?.label ?? 'List', path: listsMeta?.path ?? '/lists' }),
    [listsMeta],
  );
  const targets = useMemo(() => [target], [target]);
  const params = useMemo(() => ({ kind: listKind }), [listKind]);
  // The picker's first page of lists, asked for up front: it tells whether lists can be added at all.
  const probe = useRelationOptionsQuery({ targets, search: '', params }, { skip: !canWrite || !listKind });
  const [update, updateState] = useUpdateResourceMutation();
  const lists = listsOf(record);
  const noun = LIST_NOUNS[listKind] ?? 'lists';
  const unavailable = Boolean(probe.error && 'status' in probe.error && probe.error.status === 404);

  const save = async (ids: string[], done: string) => {
    try {
      await update({ path: meta.path, id: record.id, body: { lists: ids } }).unwrap();
      notify.success(done);
    } catch (error) {
      notify.error(`Could not change the lists: ${apiErrorMessage(error as ApiError)}`);
    }
  };
  const add = (list: RelatedRef | null) => {
    if (!list || lists.some((entry) => entry.id === list.id)) return;
    void save([...lists.map((entry) => entry.id), list.id], `Added to “${truncate(list.display_name ?? 'the list', 100)}”.`);
  };
  const remove = (list: ListMembership) =>
    void save(
      lists.filter((entry) => entry.id !== list.id).map((entry) => entry.id),
      `Removed from “${truncate(list.name, 100)}”.`,
    );

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} data-testid="record-lists" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5 }}>
        <PlaylistAddCheckIcon fontSize="small" color="action" />
        <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          Lists
        </Typography>
      </Stack>
      {lists.length === 0 ? (
        <Typography color="text.secondary" sx={{ mb: canWrite ? 2 : 0 }}>
          Not in any list{canWrite ? ' yet' : ''}.
        </Typography>
      ) : (
        <Stack component="ul" direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1, m: 0, mb: canWrite ? 2 : 0, p: 0, listStyle: 'none' }}>
          {lists.map((entry) => {
            const href = recordHref('lists', entry);
            return (
              <Box
                component="li"
                key={entry.id}
                sx={{
                  display: 'inline-flex',
                  alignItems: 'center',
                  maxWidth: '100%',
                  border: 1,
                  borderColor: 'divider',
                  borderRadius: 4,
                  pl: 1.5,
                  pr: canWrite ? 0.25 : 1.5,
                  py: canWrite ? 0 : 0.5,
                  minHeight: 32,
                }}
              >
                {href ? (
                  <Link component={RouterLink} to={href} underline="hover" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                    {entry.name}
                  </Link>
                ) : (
                  <Typography component="span" sx={{ overflowWrap: 'anywhere' }}>
                    {entry.name}
                  </Typography>
                )}
                {canWrite && (
                  <Tooltip title="Remove from this list">
                    <span>
                      <IconButton size="small" aria-label={`Remove from ${entry.name}`} onClick={() => remove(entry)} disabled={updateState.isLoading} sx={{ ml: 0.25 }}>
                        <CloseIcon fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                )}
              </Box>
            );
          })}
        </Stack>
      )}
      {canWrite && (
        <Box sx={{ maxWidth: 420 }}>
          <RecordPicker
            multiple={false}
            clearOnChoice
            label="Add to list"
            targets={targets}
            params={params}
            value={null}
            onChange={add}
            exclude={lists.map((entry) => entry.id)}
            disabled={Boolean(unavailable) || updateState.isLoading}
            size="small"
            placeholder={`Search ${noun}`}
            helperText={unavailable ? undefined : `Pick one of the ${noun} to add this ${meta.label.toLowerCase()} to it.`}
          />
          {unavailable && (
            <Alert severity="info" variant="outlined" sx={{ mt: 1 }}>
              Adding to lists is not available yet: this server does not offer lists.
            </Alert>
          )}
        </Box>
      )}
    </Paper>
  );
}
