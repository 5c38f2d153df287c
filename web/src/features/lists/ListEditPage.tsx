import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage } from '../../api/api-error';
import type { ResourceRecord } from '../../api/resources';
import { EntityForm } from '../../components/EntityForm';
import { NotFoundPage } from '../../components/NotFoundPage';
import { recordName } from '../../components/resource-view';
import { ResourceMetaGate } from '../../components/ResourceMetaGate';
import { RetryAlert } from '../../components/RetryAlert';
import { StatusMessage } from '../../components/StatusMessage';
import { kindBySegment, listsPagePath, type ListKindInfo } from './list-kinds';
import { useListBySlugQuery } from './lists.api';
import { listsView } from './lists.view';
import { PageHeading } from '../../components/PageHeading';

function EditList({ meta, kind, slug }: { meta: ResourceMeta; kind: ListKindInfo; slug: string }) {
  const navigate = useNavigate();
  // The form starts from what the server has now and keeps that starting point while refetches come in.
  const { data, error, isFetching, refetch } = useListBySlugQuery({ segment: kind.segment, slug }, { refetchOnMountOrArgChange: true });
  const [record, setRecord] = useState<ResourceRecord | null>(null);
  const currentSlug = typeof data?.['slug'] === 'string' ? data['slug'] : null;
  if (record === null && data && !isFetching && currentSlug === slug) setRecord(data);

  useEffect(() => {
    if (currentSlug && currentSlug !== slug) navigate(`/lists/${kind.segment}/${encodeURIComponent(currentSlug)}/edit`, { replace: true });
  }, [currentSlug, slug, kind.segment, navigate]);

  if (record === null) {
    if (!error || isFetching) return <LinearProgress aria-label="Loading the list" />;
    if ('status' in error && error.status === 404) {
      return (
        <StatusMessage
          title="List not found"
          actions={
            <Button variant="contained" component={RouterLink} to={listsPagePath(kind.type)}>
              Back to {kind.plural.toLowerCase()}
            </Button>
          }
        />
      );
    }
    return <RetryAlert onRetry={() => refetch()}>{apiErrorMessage(error)}</RetryAlert>;
  }
  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }}>
      <PageHeading>{`Edit ${recordName(meta, record)}`}</PageHeading>
      <Typography color="text.secondary">
        Renaming the list gives it a new address; links to the old one keep working.
      </Typography>
      <EntityForm key={record.id} meta={meta} view={listsView} record={record} />
    </Stack>
  );
}

/** lists/{segment}/:slug/edit (research users and admins). */
export function ListEditPage({ segment }: { segment: string }) {
  const { slug = '' } = useParams();
  const kind = kindBySegment(segment);
  if (!kind) return <NotFoundPage />;
  return <ResourceMetaGate kind="lists">{(meta) => <EditList meta={meta} kind={kind} slug={slug} />}</ResourceMetaGate>;
}
