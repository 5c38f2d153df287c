import { useId, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import RemoveCircleOutlineIcon from '@mui/icons-material/RemoveCircleOutlined';
import { Link as RouterLink } from 'react-router';
import type { RelationTarget } from '@intelnotes/server/contracts';
import { apiErrorMessage, type ApiError } from '../../api/api-error';
import { useResourcesMetaQuery, type ResourceRecord } from '../../api/resources';
import { notify, truncate } from '../../components/notify';
import { recordHref } from '../../components/record-links';
import { RecordPicker } from '../../components/RelationField';
import { RetryAlert } from '../../components/RetryAlert';
import { VisibilityChip } from '../../components/VisibilityChip';
import type { ListKindInfo } from './list-kinds';
import { useAddListItemMutation, useListItemsQuery, useRemoveListItemMutation, useReorderListItemsMutation } from './lists.api';

/** Items shown per page; moving an item up or down works within the page shown. */
export const ITEMS_PER_PAGE = 50;

interface ListItemsProps {
  list: ResourceRecord;
  kind: ListKindInfo;
  canWrite: boolean;
}

const nameOf = (item: ResourceRecord) => item.display_name?.trim() || 'Unnamed';

/**
 * A list's items in order, linking to their pages. Writers add records of the list's kind
 * (searched by name), remove them, and move them up or down.
 */
export function ListItems({ list, kind, canWrite }: ListItemsProps) {
  const headingId = useId();
  const [page, setPage] = useState(0);
  const metas = useResourcesMetaQuery();
  const itemMeta = metas.data?.find((meta) => meta.list_kind === kind.type);
  const target = useMemo<RelationTarget | null>(
    () => (itemMeta ? { kind: itemMeta.kind, type: itemMeta.type, label: itemMeta.label, path: itemMeta.path } : null),
    [itemMeta],
  );
  const items = useListItemsQuery({ listId: list.id, limit: ITEMS_PER_PAGE, offset: page * ITEMS_PER_PAGE }, { refetchOnMountOrArgChange: true });
  const [add, addState] = useAddListItemMutation();
  const [remove, removeState] = useRemoveListItemMutation();
  const [reorder, reorderState] = useReorderListItemsMutation();
  const busy = addState.isLoading || removeState.isLoading || reorderState.isLoading;

  const results = items.data?.results ?? [];
  const count = items.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / ITEMS_PER_PAGE));
  const itemPath = target?.path ?? '';
  const hasKeywords = Array.isArray(list['keywords']) && list['keywords'].length > 0;

  const addItem = async (ref: { id: string; display_name: string | null } | null) => {
    if (!ref) return;
    const name = truncate(ref.display_name?.trim() || 'Unnamed', 100);
    try {
      await add({ listId: list.id, itemId: ref.id, itemPath }).unwrap();
      notify.success(`Added “${name}” to the list${list['auto_tagging'] && hasKeywords ? ", with the list's keywords" : ''}.`);
      // The new item is the last one: show the page it is on.
      setPage(Math.floor(count / ITEMS_PER_PAGE));
    } catch (failure) {
      notify.error(`Could not add “${name}”: ${apiErrorMessage(failure as ApiError)}`);
    }
  };

  const removeItem = async (item: ResourceRecord) => {
    try {
      await remove({ listId: list.id, itemId: item.id, itemPath }).unwrap();
      notify.success(`Removed “${truncate(nameOf(item), 100)}” from the list.`);
      if (results.length === 1 && page > 0) setPage(page - 1);
    } catch (failure) {
      notify.error(`Could not remove “${truncate(nameOf(item), 100)}”: ${apiErrorMessage(failure as ApiError)}`);
    }
  };

  /** Swaps an item with its neighbour on the page: the two trade places. */
  const move = async (index: number, by: -1 | 1) => {
    const item = results[index];
    const neighbour = results[index + by];
    if (!item || !neighbour) return;
    const ids = by < 0 ? [item.id, neighbour.id] : [neighbour.id, item.id];
    try {
      await reorder({ listId: list.id, ids, itemPath }).unwrap();
    } catch (failure) {
      notify.error(`Could not move “${truncate(nameOf(item), 100)}”: ${apiErrorMessage(failure as ApiError)}`);
    }
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack spacing={2}>
        <Stack direction="row" useFlexGap sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography id={headingId} variant="h6" component="h2" sx={{ fontWeight: 600 }}>
            Items
          </Typography>
          {items.data && <Chip size="small" label={count.toLocaleString('en-GB')} aria-label={`${count} items`} data-testid="items-count" />}
        </Stack>

        {canWrite && target && (
          <Box sx={{ maxWidth: 560 }}>
            <RecordPicker
              multiple={false}
              clearOnChoice
              label={`Add ${kind.item}`}
              targets={[target]}
              value={null}
              onChange={addItem}
              disabled={busy}
              exclude={results.map((item) => item.id)}
              helperText={list['auto_tagging'] && hasKeywords ? "Items added receive this list's keywords." : undefined}
            />
          </Box>
        )}
        {canWrite && !target && metas.data && (
          <Typography color="text.secondary">Items cannot be added to {kind.plural.toLowerCase()} in this version.</Typography>
        )}

        {items.error && <RetryAlert onRetry={() => void items.refetch()}>{apiErrorMessage(items.error)}</RetryAlert>}
        {(items.isFetching || busy) && <LinearProgress aria-label="Updating the items" />}

        {items.data && results.length === 0 && (
          <Typography color="text.secondary" data-testid="no-items">
            {count === 0 ? `No ${kind.items} in this list yet.` : 'No items on this page.'}
          </Typography>
        )}
        {results.length > 0 && (
          <Box component="ol" start={page * ITEMS_PER_PAGE + 1} aria-labelledby={headingId} sx={{ m: 0, p: 0, listStyle: 'none' }}>
            {results.map((item, index) => {
              const href = target ? recordHref(target.kind, { id: item.id }) : null;
              const name = nameOf(item);
              const position = page * ITEMS_PER_PAGE + index + 1;
              return (
                <Box
                  component="li"
                  key={item.id}
                  data-testid="list-item"
                  sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 1, borderTop: index === 0 ? 0 : 1, borderColor: 'divider' }}
                >
                  <Typography color="text.secondary" sx={{ minWidth: '2.5ch', textAlign: 'right', fontVariantNumeric: 'tabular-nums' }} aria-hidden="true">
                    {position}.
                  </Typography>
                  <Box sx={{ flex: 1, minWidth: 0, display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                    {href ? (
                      <Link component={RouterLink} to={href} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                        {name}
                      </Link>
                    ) : (
                      <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{name}</Typography>
                    )}
                    {item['visibility'] !== 'public' && <VisibilityChip value={item['visibility']} />}
                  </Box>
                  {canWrite && (
                    <Stack direction="row" sx={{ flexShrink: 0 }}>
                      <Tooltip title="Move up">
                        <span>
                          <IconButton size="small" aria-label={`Move “${name}” up`} disabled={busy || index === 0} onClick={() => void move(index, -1)}>
                            <ArrowUpwardIcon fontSize="small" />
                          </IconButton>
                        </span>
                      </Tooltip>
                      <Tooltip title="Move down">
                        <span>
                          <IconButton
                            size="small"
                            aria-label={`Move “${name}” down`}
                            disabled={busy || index === results.length - 1}
                            onClick={() => void move(index, 1)}
                          >
                            <ArrowDownwardIcon fontSize="small" />
                          </IconButton>
                        </span>
                      </Tooltip>
                      <Tooltip title="Remove from the list">
                        <span>
                          <IconButton size="small" color="error" aria-label={`Remove “${name}” from the list`} disabled={busy} onClick={() => void removeItem(item)}>
                            <RemoveCircleOutlineIcon fontSize="small" />
                          </IconButton>
                        </span>
                      </Tooltip>
                    </Stack>
                  )}
                </Box>
              );
            })}
          </Box>
        )}
        {pages > 1 && (
          <Pagination
            count={pages}
            page={page + 1}
            onChange={(_event, next) => setPage(next - 1)}
            getItemAriaLabel={(type, number, selected) => (type === 'page' ? `${selected ? '' : 'Go to '}page ${number}` : `Go to ${type} page`)}
            sx={{ alignSelf: 'center' }}
          />
        )}
      </Stack>
    </Paper>
  );
}
