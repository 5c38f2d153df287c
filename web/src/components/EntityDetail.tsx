import { RetryAlert } from './RetryAlert';
import { useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import MergeIcon from '@mui/icons-material/MergeType';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage, isPaywalledError, type ApiError } from '../api/api-error';
import { useGetResourceQuery, useRemoveResourceMutation } from '../api/resources';
import { ConfirmDialog } from './ConfirmDialog';
import { MergeDialog } from './MergeDialog';
import { formatDateTime } from './field-format';
import { HistoryPanel } from './HistoryPanel';
import { LockedRecord } from './LockedOffer';
import { ListsWidget } from './ListsWidget';
import { notify } from './notify';
import { RecordFields } from './RecordFields';
import { RelatedSection } from './RelatedSection';
import { listPath, recordName, recordPath, toastName, useAccessLevel, useCanWrite, type ResourceView } from './resource-view';
import { StatusMessage } from './StatusMessage';
import { RecordHeader } from './RecordHeader';

interface EntityDetailProps {
  meta: ResourceMeta;
  view: ResourceView;
  id: string;
  /**
   * What the page shows below the record (another feature's sections: investments), once the
   * record is there: a locked or missing record asks for nothing more.
   */
  sections?: ReactNode;
}

/** One record of any resource with all its fields; writers can edit and delete it. */
export function EntityDetail({ meta, view, id, sections }: EntityDetailProps) {
  const navigate = useNavigate();
  const canWrite = useCanWrite(meta);
  const access = useAccessLevel();
  const { data: record, error, isLoading, isFetching, refetch } = useGetResourceQuery({ path: meta.path, id });
  const [remove, removeState] = useRemoveResourceMutation();
  const [confirming, setConfirming] = useState(false);
  const [merging, setMerging] = useState(false);
  const listPage = listPath(view);

  if (isLoading) return <LinearProgress aria-label={`Loading the ${meta.label.toLowerCase()}`} />;
  if (isPaywalledError(error)) return <LockedRecord label={meta.label} back={{ to: listPage, label: view.title }} />;
  if (error && 'status' in error && error.status === 404) {
    return (
      <StatusMessage
        title={`${meta.label} not found`}
        actions={
          <Button variant="contained" component={RouterLink} to={listPage}>
            Back to {view.title.toLowerCase()}
          </Button>
        }
      >
        <Typography color="text.secondary">It may have been deleted, or you may not have access to it.</Typography>
      </StatusMessage>
    );
  }
  if (error || !record) {
    return (
      <RetryAlert onRetry={() => refetch()}>
        {error ? apiErrorMessage(error) : `The ${meta.label.toLowerCase()} could not be loaded.`}
      </RetryAlert>
    );
  }

  const deleteRecord = async () => {
    try {
      await remove({ path: meta.path, id: record.id }).unwrap();
      notify.success(`${toastName(meta, record)} deleted.`);
      setConfirming(false);
      navigate(listPage, { replace: true });
    } catch (failure) {
      notify.error(`Could not delete the ${meta.label.toLowerCase()}: ${apiErrorMessage(failure as ApiError)}`);
    }
  };

  return (
    <Stack spacing={3}>
      <RecordHeader
        back={{ to: listPage, label: view.title }}
        title={recordName(meta, record)}
        kindLabel={meta.label}
        visibility={record['visibility']}
        actions={
          canWrite && (
            <>
              <Button variant="contained" startIcon={<EditIcon />} component={RouterLink} to={`${recordPath(view, record.id)}/edit`}>
                Edit
              </Button>
              {meta.mergeable && (
                <Button variant="outlined" startIcon={<MergeIcon />} onClick={() => setMerging(true)}>
                  Merge duplicate
                </Button>
              )}
              {meta.deletable && (
                <Button variant="outlined" color="error" startIcon={<DeleteIcon />} onClick={() => setConfirming(true)}>
                  Delete
                </Button>
              )}
            </>
          )
        }
      />
      {isFetching && <LinearProgress aria-label="Refreshing" />}

      <RecordFields meta={meta} view={view} record={record} />

      <Typography variant="body2" color="text.secondary">
        Created {record['created_at'] ? formatDateTime(String(record['created_at'])) : '—'} · Updated{' '}
        {record['updated_at'] ? formatDateTime(String(record['updated_at'])) : '—'}
      </Typography>

      {meta.list_kind && <ListsWidget meta={meta} record={record} canWrite={canWrite} />}
      <RelatedSection meta={meta} record={record} omit={view.relatedOmit} />
      {access === 'admin' && <HistoryPanel meta={meta} view={view} record={record} />}

      {sections}

      {meta.mergeable && canWrite && <MergeDialog meta={meta} view={view} record={record} open={merging} onClose={() => setMerging(false)} />}

      <ConfirmDialog
        open={confirming}
        title={`Delete this ${meta.label.toLowerCase()}?`}
        confirmLabel="Delete"
        danger
        busy={removeState.isLoading}
        onConfirm={deleteRecord}
        onCancel={() => setConfirming(false)}
      >
        “{recordName(meta, record)}” will be deleted for everyone, with its list memberships, and removed from every record that refers to it. This cannot be undone.
      </ConfirmDialog>
    </Stack>
  );
}
