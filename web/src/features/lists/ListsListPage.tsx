import { useMemo } from 'react';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useSearchParams } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { DataTable } from '../../components/DataTable';
import { ListPageHeader } from '../../components/ListPageHeader';
import { useCanWrite, type ResourceView } from '../../components/resource-view';
import { ResourceMetaGate } from '../../components/ResourceMetaGate';
import { isListType, kindByType, LIST_KINDS, listPagePath, type ListType } from './list-kinds';
import { listsView } from './lists.view';

const ALL = 'all';

/** The lists table: the shared one, with each list's item count (as the reader sees it). */
const tableView: ResourceView = {
  ...listsView,
  columns: ['display_name', 'kind', 'item_count', 'description', 'visibility', 'updated_at'],
  labels: { ...listsView.labels, item_count: 'Items' },
};

function ListsList({ meta }: { meta: ResourceMeta }) {
  const canWrite = useCanWrite(meta);
  const [params, setParams] = useSearchParams();
  const typeParam = params.get('type');
  const type: ListType | null = isListType(typeParam) ? typeParam : null;
  const kind = type ? kindByType(type) : undefined;
  // The type is its own URL parameter (the launcher links ?type=LibraryList), so the table
  // offers every other filter and sends the type with each query.
  const tableMeta = useMemo<ResourceMeta>(() => ({ ...meta, filters: meta.filters.filter((name) => name !== 'kind') }), [meta]);
  const fixedParams = useMemo(() => (type ? { kind: type } : undefined), [type]);
  const view = useMemo(() => ({ ...tableView, title: kind ? kind.plural : 'Lists' }), [kind]);

  const chooseType = (next: string) => {
    const out = new URLSearchParams(params);
    out.set('tab', '1');
    if (isListType(next)) out.set('type', next);
    else out.delete('type');
    out.delete('page');
    setParams(out);
  };

  return (
    <Stack spacing={3}>
      <ListPageHeader
        title={kind ? kind.plural : 'Lists'}
        description={kind ? `Ordered collections of ${kind.items}.` : 'Ordered collections of library entries, ledger entries, organizations and people.'}
        create={canWrite ? { label: `New ${kind ? kind.label.toLowerCase() : 'list'}`, to: type ? `/lists/create?type=${type}` : '/lists/create' } : undefined}
      />
      <Tabs
        value={type ?? ALL}
        onChange={(_event, next: string) => chooseType(next)}
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label="Type of list"
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value={ALL} label="All lists" />
        {LIST_KINDS.map((entry) => (
          <Tab key={entry.type} value={entry.type} label={entry.plural} />
        ))}
      </Tabs>
      <DataTable meta={tableMeta} view={view} fixedParams={fixedParams} tableKey="lists" rowPath={listPagePath} />
    </Stack>
  );
}

/** /lists?tab=1 with an optional type=LibraryList|LedgerList|OrganizationsList|PeopleList. */
export function ListsListPage() {
  return <ResourceMetaGate kind="lists">{(meta) => <ListsList meta={meta} />}</ResourceMetaGate>;
}
