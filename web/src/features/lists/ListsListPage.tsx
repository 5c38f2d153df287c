import { useMemo } from 'react';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { GridColDef } from '@mui/x-data-grid';
import { Link as RouterLink, useSearchParams } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { useListResourceQuery, type ResourceRecord } from '../../api/resources';
import { formatDateTime } from '../../components/field-format';
import { useCanWrite } from '../../components/resource-view';
import { ResourceMetaGate } from '../../components/ResourceMetaGate';
import { ServerListTable } from '../../components/ServerListTable';
import { listParams, useListUrlState, type ListUrlSpec } from '../../components/use-list-url-state';
import { VisibilityChip } from '../../components/VisibilityChip';
import { isListType, kindByType, LIST_KINDS, listPagePath, type ListType } from './list-kinds';

const ALL = 'all';

const columns: GridColDef<ResourceRecord>[] = [
  {
    field: 'name',
    headerName: 'Name',
    minWidth: 220,
    flex: 2,
    valueGetter: (_value, row) => String(row['name'] ?? ''),
    renderCell: ({ row }) => (
      // A link makes rows reachable by keyboard and opens in a new tab on middle click.
      <Link component={RouterLink} to={listPagePath(row)} onClick={(event) => event.stopPropagation()} sx={{ fontWeight: 600 }}>
        {String(row['name'] ?? '')}
      </Link>
    ),
  },
  { field: 'kind', headerName: 'Type', minWidth: 170, flex: 1, valueGetter: (_value, row) => kindByType(String(row['kind']))?.label ?? '' },
  {
    field: 'description',
    headerName: 'Description',
    minWidth: 220,
    flex: 2,
    sortable: false,
    valueGetter: (_value, row) => String(row['description'] ?? '').replace(/\s+/g, ' '),
  },
  { field: 'visibility', headerName: 'Visibility', minWidth: 130, flex: 0, renderCell: ({ row }) => <VisibilityChip value={row['visibility']} /> },
  { field: 'updated_at', headerName: 'Updated', minWidth: 170, flex: 0, valueGetter: (_value, row) => (row['updated_at'] ? formatDateTime(String(row['updated_at'])) : '') },
];

function ListsList({ meta }: { meta: ResourceMeta }) {
  const canWrite = useCanWrite(meta);
  const [params, setParams] = useSearchParams();
  const typeParam = params.get('type');
  const type: ListType | null = isListType(typeParam) ? typeParam : null;
  const kind = type ? kindByType(type) : undefined;
  // The type is its own URL parameter (the launcher links ?type=LibraryList); the table keeps the rest.
  const spec = useMemo<ListUrlSpec>(() => ({ ordering: meta.ordering, filters: [] }), [meta.ordering]);
  const { state, update } = useListUrlState(spec);
  const query = useMemo(() => ({ ...listParams(state), ...(type ? { kind: type } : {}) }), [state, type]);
  const list = useListResourceQuery({ path: meta.path, params: query });

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
      <Stack direction="row" useFlexGap sx={{ gap: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Stack spacing={0.5}>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
            {kind ? kind.plural : 'Lists'}
          </Typography>
          <Typography color="text.secondary">
            {kind ? `Ordered collections of ${kind.items}.` : 'Ordered collections of library entries, ledger entries, organizations and people.'}
          </Typography>
        </Stack>
        {canWrite && (
          <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to={type ? `/lists/create?type=${type}` : '/lists/create'}>
            New {kind ? kind.label.toLowerCase() : 'list'}
          </Button>
        )}
      </Stack>
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
      <ServerListTable<ResourceRecord>
        title={kind ? kind.plural : 'Lists'}
        searchLabel="Search lists"
        spec={spec}
        state={state}
        update={update}
        columns={columns}
        list={list}
        rowPath={listPagePath}
        emptyLabel={kind ? `No ${kind.plural.toLowerCase()} yet.` : 'No lists yet.'}
      />
    </Stack>
  );
}

/** /lists?tab=1 with an optional type=LibraryList|LedgerList|OrganizationsList|PeopleList. */
export function ListsListPage() {
  return <ResourceMetaGate kind="lists">{(meta) => <ListsList meta={meta} />}</ResourceMetaGate>;
}
