import type { ReactNode } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { RetryAlert } from './RetryAlert';
import { apiErrorMessage } from '../api/api-error';
import { useResourceMeta } from '../api/resources';

interface ResourceMetaGateProps {
  kind: string;
  children: (meta: ResourceMeta) => ReactNode;
}

/** Renders its children with a resource's metadata once loaded; a progress bar or the error meanwhile. */
export function ResourceMetaGate({ kind, children }: ResourceMetaGateProps) {
  const { meta, isLoading, error, refetch } = useResourceMeta(kind);
  if (isLoading) return <LinearProgress aria-label="Loading" />;
  if (!meta) {
    return (
      <RetryAlert onRetry={() => refetch()}>
        {error ? apiErrorMessage(error) : `The server does not offer "${kind}".`}
      </RetryAlert>
    );
  }
  return children(meta);
}
