import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { GridColDef } from '@mui/x-data-grid';
import { Link as RouterLink } from 'react-router';
import type { User } from '@intelnotes/server/contracts';
import { useListUsersQuery } from './users.api';
import { formatDateTime } from '../../components/field-format';
import { ServerListPage } from '../../components/ServerListPage';
import type { ListUrlSpec } from '../../components/use-list-url-state';
import { roleOf, userEditPath } from './user-labels';

const USERS_LIST: ListUrlSpec = { ordering: ['email', 'alias', 'created_at', 'updated_at', 'last_login_at'], filters: ['disabled'] };

const STATUS_OPTIONS = [
  { value: '', label: 'All users' },
  { value: 'false', label: 'Active' },
  { value: 'true', label: 'Disabled' },
];

const columns: GridColDef<User>[] = [
  {
    field: 'email',
    headerName: 'Email',
    minWidth: 240,
    flex: 2,
    renderCell: ({ row }) => (
      // The link makes rows reachable by keyboard and opens in a new tab on middle click.
      <Link component={RouterLink} to={userEditPath(row.id)} onClick={(event) => event.stopPropagation()} sx={{ fontWeight: 600 }}>
        {row.email}
      </Link>
    ),
  },
  { field: 'alias', headerName: 'Alias', minWidth: 140, flex: 1, valueGetter: (_value, row) => row.alias ?? '' },
  {
    field: 'role',
    headerName: 'Role',
    minWidth: 120,
    flex: 0,
    valueGetter: (_value, row) => roleOf(row),
    renderCell: ({ value }) => (
      <Chip size="small" label={String(value)} color={value === 'Admin' ? 'primary' : 'default'} variant={value === 'Reader' ? 'outlined' : 'filled'} />
    ),
  },
  {
    field: 'disabled',
    headerName: 'Status',
    minWidth: 110,
    flex: 0,
    valueGetter: (_value, row) => (row.disabled ? 'Disabled' : 'Active'),
    renderCell: ({ row }) => (
      <Chip size="small" data-testid="user-status" label={row.disabled ? 'Disabled' : 'Active'} color={row.disabled ? 'error' : 'success'} variant="outlined" />
    ),
  },
  {
    field: 'last_login_at',
    headerName: 'Last sign-in',
    minWidth: 170,
    flex: 0,
    valueGetter: (_value, row) => (row.last_login_at ? formatDateTime(row.last_login_at) : 'Never'),
  },
  { field: 'created_at', headerName: 'Created', minWidth: 170, flex: 0, valueGetter: (_value, row) => formatDateTime(row.created_at) },
];

/** /users: the users of this tenant (admins only). */
export function UserListPage() {
  return (
    <ServerListPage<User>
      title="Users"
      description="Everyone who can sign in to this workspace. Users are disabled rather than deleted, so their work stays attributed."
      create={{ label: 'New user', to: '/users/create' }}
      tableKey="users"
      searchLabel="Search users"
      spec={USERS_LIST}
      columns={columns}
      useList={useListUsersQuery}
      rowPath={(row) => userEditPath(row.id)}
      emptyLabel="No users yet."
      toolbar={(state, update) => (
        <TextField
          select
          size="small"
          label="Status"
          value={state.filters['disabled']?.[0] ?? ''}
          onChange={(event) => update({ filters: event.target.value ? { disabled: [event.target.value] } : {} })}
          sx={{ minWidth: 160 }}
          // "All users" is the empty value: shown like any other choice.
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          {STATUS_OPTIONS.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}
