import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { EntityDetail } from './EntityDetail';
import type { ResourceView } from './resource-view';
import { ResourceMetaGate } from './ResourceMetaGate';

/**
 * The page of one record, at `${view.basePath}/:id`; `sections` (given the id) go below the
 * record once it is shown — not beside a locked or missing one, whose failed request a second
 * reader of the same record would otherwise send again.
 */
export function ResourceDetailPage({ view, sections }: { view: ResourceView; sections?: (id: string) => ReactNode }) {
  const { id = '' } = useParams();
  return <ResourceMetaGate kind={view.kind}>{(meta) => <EntityDetail key={id} meta={meta} view={view} id={id} sections={sections?.(id)} />}</ResourceMetaGate>;
}
