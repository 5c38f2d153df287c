import { useParams } from 'react-router';
import { EntityDetail } from './EntityDetail';
import type { ResourceView } from './resource-view';
import { ResourceMetaGate } from './ResourceMetaGate';

/** The page of one record, at `${view.basePath}/:id`. */
export function ResourceDetailPage({ view }: { view: ResourceView }) {
  const { id = '' } = useParams();
  return <ResourceMetaGate kind={view.kind}>{(meta) => <EntityDetail key={id} meta={meta} view={view} id={id} />}</ResourceMetaGate>;
}
