import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { Link as RouterLink, useLocation, useNavigate, useParams } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage, isPaywalledError, type ApiError } from '../../api/api-error';
import { useRemoveResourceMutation } from '../../api/resources';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DetailFields } from '../../components/DetailList';
import { formatDateTime } from '../../components/field-format';
import { FieldValue, isEmptyFieldValue } from '../../components/FieldValue';
import { HistoryPanel } from '../../components/HistoryPanel';
import { LockedRecord } from '../../components/LockedOffer';
import { notify } from '../../components/notify';
import { NotFoundPage } from '../../components/NotFoundPage';
import { recordName, toastName, useAccessLevel, useCanWrite } from '../../components/resource-view';
import { ResourceMetaGate } from '../../components/ResourceMetaGate';
import { RetryAlert } from '../../components/RetryAlert';
import { StatusMessage } from '../../components/StatusMessage';
import { RecordHeader } from '../../components/RecordHeader';
import { kindBySegment, listsPagePath, type ListKindInfo } from './list-kinds';
import { ListItems } from './ListItems';
import { useListBySlugQuery } from './lists.api';
import { listsView } from './lists.view';

interface ListDetailProps {
  meta: ResourceMeta;
  kind: ListKindInfo;
  slug: string;
}

function ListDetail({ meta, kind, slug }: ListDetailProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const access = useAccessLevel();
  const canWrite = useCanWrite(meta);
  const { data: list, error, isLoading, isFetching, refetch } = useListBySlugQuery({ segment: kind.segment, slug }, { refetchOnMountOrArgChange: true });
  const [remove, removeState] = useRemoveResourceMutation();
  const [confirming, setConfirming] = useState(false);
  const listsPage = listsPagePath(kind.type);
  const currentSlug = typeof list?.['slug'] === 'string' ? list['slug'] : null;

  // An earlier slug (the server redirected) or an id: the address becomes the list's current one.
  useEffect(() => {
    if (currentSlug && currentSlug !== slug) {
      navigate(`/lists/${kind.segment}/${encodeURIComponent(currentSlug)}${location.search}`, { replace: true });
    }
  }, [currentSlug, slug, kind.segment, location.search, navigate]);

  if (isLoading) return <LinearProgress aria-label="Loading the list" />;
  if (isPaywalledError(error)) return <LockedRecord label="list" back={{ to: listsPage, label: kind.plural }} />;
  if (error && 'status' in error && error.status === 404) {
    return (
      <StatusMessage
        title="List not found"
        actions={
          <Button variant="contained" component={RouterLink} to={listsPage}>
            Back to {kind.plural.toLowerCase()}
          </Button>
        }
      >
        <Typography color="text.secondary">It may have been deleted, or you may not have access to it.</Typography>
      </StatusMessage>
    );
  }
  if (error || !list) {
    return <RetryAlert onRetry={() => refetch()}>{error ? apiErrorMessage(error) : 'The list could not be loaded.'}</RetryAlert>;
  }

  const deleteList = async () => {
    try {
      await remove({ path: meta.path, id: list.id }).unwrap();
      notify.success(`${toastName(meta, list)} deleted.`);
      setConfirming(false);
      navigate(listsPage, { replace: true });
    } catch (failure) {
      notify.error(`Could not delete the list: ${apiErrorMessage(failure as ApiError)}`);
    }
  };

  const keywordsField = meta.fields.find((field) => field.name === 'keywords');
  const description = typeof list['description'] === 'string' ? list['description'] : '';
  const editPath = `/lists/${kind.segment}/${encodeURIComponent(currentSlug ?? slug)}/edit`;

  return (
    <Stack spacing={3}>
      <RecordHeader
        back={{ to: listsPage, label: kind.plural }}
        title={recordName(meta, list)}
        kindLabel={kind.label}
        visibility={list['visibility']}
        actions={
          canWrite && (
            <>
              <Button variant="contained" startIcon={<EditIcon />} component={RouterLink} to={editPath}>
                Edit
              </Button>
              <Button variant="outlined" color="error" startIcon={<DeleteIcon />} onClick={() => setConfirming(true)}>
                Delete
              </Button>
            </>
          )
        }
      />
      {isFetching && <LinearProgress aria-label="Refreshing" />}

      <DetailFields
        fields={[
          {
            name: 'description',
            label: 'Description',
            empty: description === '',
            value: (
              <Box component="span" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {description}
              </Box>
            ),
          },
          {
            name: 'keywords',
            label: 'Keywords',
            empty: !keywordsField || isEmptyFieldValue(keywordsField, list['keywords']),
            value: keywordsField && <FieldValue field={keywordsField} value={list['keywords']} />,
          },
          { name: 'auto_tagging', label: 'Auto-tagging', empty: false, value: list['auto_tagging'] ? "On: items added receive this list's keywords" : 'Off' },
          // A curators' flag: for those who curate, not for readers.
          ...(canWrite ? [{ name: 'show_on_dashboard', label: 'Show on dashboard', empty: false, value: list['show_on_dashboard'] ? 'Yes' : 'No' }] : []),
        ]}
      />

      <ListItems list={list} kind={kind} canWrite={canWrite} />

      {access === 'admin' && <HistoryPanel meta={meta} view={listsView} record={list} />}

      <Typography variant="body2" color="text.secondary">
        Created {list['created_at'] ? formatDateTime(String(list['created_at'])) : '—'} · Updated{' '}
        {list['updated_at'] ? formatDateTime(String(list['updated_at'])) : '—'}
      </Typography>

      <ConfirmDialog
        open={confirming}
        title="Delete this list?"
        confirmLabel="Delete"
        danger
        busy={removeState.isLoading}
        onConfirm={deleteList}
        onCancel={() => setConfirming(false)}
      >
        “{recordName(meta, list)}” will be deleted for everyone. Its items stay where they are, with their keywords; only the list goes. This cannot be undone.
      </ConfirmDialog>
    </Stack>
  );
}

/** lists/{segment}/:slug — the slug may be an earlier one or the list's id; the address is corrected. */
export function ListDetailPage({ segment }: { segment: string }) {
  const { slug = '' } = useParams();
  const kind = kindBySegment(segment);
  if (!kind) return <NotFoundPage />;
  return <ResourceMetaGate kind="lists">{(meta) => <ListDetail meta={meta} kind={kind} slug={slug} />}</ResourceMetaGate>;
}

