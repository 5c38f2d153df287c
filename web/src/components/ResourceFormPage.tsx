import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import { Link as RouterLink, useParams } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage } from '../api/api-error';
import { useGetResourceQuery, type ResourceRecord } from '../api/resources';
import { EntityForm, type EntityFormApi } from './EntityForm';
import { listPath, recordName, type ResourceView } from './resource-view';
import { ResourceMetaGate } from './ResourceMetaGate';
import { PageHeading } from './PageHeading';
import { StatusMessage } from './StatusMessage';

interface ResourceFormPageProps {
  view: ResourceView;
  /** Feature controls shown above the fields (e.g. suggestions from a URL). */
  renderBeforeFields?: (form: EntityFormApi) => ReactNode;
}

/** `${view.basePath}/create`: a new record. */
export function ResourceCreatePage({ view, renderBeforeFields }: ResourceFormPageProps) {
  return (
    <ResourceMetaGate kind={view.kind}>
      {(meta) => (
        <Stack spacing={3} sx={{ maxWidth: 960 }}>
          <PageHeading>{`New ${meta.label.toLowerCase()}`}</PageHeading>
          <EntityForm meta={meta} view={view} renderBeforeFields={renderBeforeFields} />
        </Stack>
      )}
    </ResourceMetaGate>
  );
}

function EditForm({ meta, view, id, renderBeforeFields }: ResourceFormPageProps & { meta: ResourceMeta; id: string }) {
  // The form starts from what the server has now, not from a cached copy, and keeps that
  // starting point (the changes sent are measured from it) while later refetches come in.
  const { data, error, isFetching, refetch } = useGetResourceQuery({ path: meta.path, id }, { refetchOnMountOrArgChange: true });
  const [record, setRecord] = useState<ResourceRecord | null>(null);
  if (record === null && data && !isFetching) setRecord(data);
  if (record === null) {
    if (!error || isFetching) return <LinearProgress aria-label={`Loading the ${meta.label.toLowerCase()}`} />;
    if ('status' in error && error.status === 404) {
      return (
        <StatusMessage
          title={`${meta.label} not found`}
          actions={
            <Button variant="contained" component={RouterLink} to={listPath(view)}>
              Back to {view.title.toLowerCase()}
            </Button>
          }
        />
      );
    }
    return (
      <Alert severity="error" action={<Button color="inherit" size="small" onClick={() => refetch()}>Retry</Button>}>
        {apiErrorMessage(error)}
      </Alert>
    );
  }
  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }}>
      <PageHeading>{`Edit ${recordName(meta, record)}`}</PageHeading>
      <EntityForm key={record.id} meta={meta} view={view} record={record} renderBeforeFields={renderBeforeFields} />
    </Stack>
  );
}

/** `${view.basePath}/:id/edit`: changes to one record. */
export function ResourceEditPage({ view, renderBeforeFields }: ResourceFormPageProps) {
  const { id = '' } = useParams();
  return (
    <ResourceMetaGate kind={view.kind}>
      {(meta) => <EditForm meta={meta} view={view} id={id} renderBeforeFields={renderBeforeFields} />}
    </ResourceMetaGate>
  );
}
