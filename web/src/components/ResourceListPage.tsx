import Stack from '@mui/material/Stack';
import { useSearchParams } from 'react-router';
import { DataTable } from './DataTable';
import { ListPageHeader } from './ListPageHeader';
import { NotAvailableYet } from './NotAvailableYet';
import { useCanWrite, type ResourceView } from './resource-view';
import { ResourceMetaGate } from './ResourceMetaGate';
import type { ResourceMeta } from '@intelnotes/server/contracts';

/** The `tab` that shows the list; the navigation links to it as ?tab=1. */
const LIST_TAB = '1';

interface ResourceListPageProps {
  view: ResourceView;
  /** What other tabs (e.g. ?tab=2 suggestions) are for, by tab value; they are not built yet. */
  otherTabs?: Record<string, string>;
  /** The `tab` values that show the list (the launcher links some lists as ?tab=0). */
  listTabs?: string[];
}

function ListHeader({ meta, view }: { meta: ResourceMeta; view: ResourceView }) {
  const canWrite = useCanWrite(meta);
  return <ListPageHeader title={view.title} create={canWrite ? { label: `New ${meta.label.toLowerCase()}`, to: `${view.basePath}/create` } : undefined} />;
}

/** A resource's list page: the table for ?tab=1 (or no tab), an honest note for tabs not built yet. */
export function ResourceListPage({ view, otherTabs = {}, listTabs = [LIST_TAB] }: ResourceListPageProps) {
  const [params] = useSearchParams();
  const tab = params.get('tab');
  if (tab !== null && !listTabs.includes(tab)) return <NotAvailableYet feature={otherTabs[tab] ?? view.title} />;
  return (
    <ResourceMetaGate kind={view.kind}>
      {(meta) => (
        <Stack spacing={3}>
          <ListHeader meta={meta} view={view} />
          <DataTable meta={meta} view={view} />
        </Stack>
      )}
    </ResourceMetaGate>
  );
}
