import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import type { GridColDef } from '@mui/x-data-grid';
import { Link as RouterLink } from 'react-router';
import type { Client } from '@intelnotes/server/contracts';
import { useListClientsQuery } from './clients.api';
import { formatDateTime } from '../../components/field-format';
import { ServerListPage } from '../../components/ServerListPage';
import type { ListUrlSpec } from '../../components/use-list-url-state';
import { clientEditPath, tenantAddress } from './tenant-address';

const CLIENTS_LIST: ListUrlSpec = { ordering: ['code', 'name', 'created_at', 'updated_at'], filters: [] };

const columns: GridColDef<Client>[] = [
  {
    field: 'code',
    headerName: 'Code',
    minWidth: 160,
    flex: 1,
    renderCell: ({ row }) => (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', height: '100%' }}>
        <Link component={RouterLink} to={clientEditPath(row.id)} onClick={(event) => event.stopPropagation()} sx={{ fontWeight: 600 }}>
          {row.code}
        </Link>
        {row.is_default && <Chip size="small" label="Default" variant="outlined" />}
      </Stack>
    ),
  },
  { field: 'name', headerName: 'Name', minWidth: 180, flex: 2 },
  {
    field: 'address',
    headerName: 'Address',
    minWidth: 220,
    flex: 2,
    valueGetter: (_value, row) => tenantAddress(row),
    renderCell: ({ value }) => (
      <Link href={String(value)} target="_blank" rel="noopener noreferrer" onClick={(event) => event.stopPropagation()}>
        {String(value).replace(/^https?:\/\//, '')}
      </Link>
    ),
  },
  { field: 'created_at', headerName: 'Created', minWidth: 170, flex: 0, valueGetter: (_value, row) => formatDateTime(row.created_at) },
];

/** /clients: every tenant of the deployment (tenant managers only). */
export function ClientListPage() {
  return (
    <ServerListPage<Client>
      title="Tenants"
      description="Each tenant is a workspace of its own on its own subdomain, with its own users and data."
      create={{ label: 'New tenant', to: '/clients/create' }}
      tableKey="clients"
      searchLabel="Search tenants"
      spec={CLIENTS_LIST}
      columns={columns}
      useList={useListClientsQuery}
      rowPath={(row) => clientEditPath(row.id)}
      emptyLabel="No tenants yet."
    />
  );
}
