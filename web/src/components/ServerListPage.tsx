import { useMemo, type ReactNode } from 'react';
import Stack from '@mui/material/Stack';
import type { ListParams } from '../api/resources';
import { ListPageHeader } from './ListPageHeader';
import { ServerListTable, type ServerListTableProps } from './ServerListTable';
import { listParams, useListUrlState, type ListUrlState } from './use-list-url-state';

type ListState = ReturnType<typeof useListUrlState>;

interface ServerListPageProps<Row extends { id: string }> extends Omit<ServerListTableProps<Row>, 'state' | 'update' | 'list' | 'toolbar'> {
  /** What the list holds, under the title. */
  description: string;
  /** The "New …" button. */
  create: { label: string; to: string };
  /** The RTK Query hook of the list call (e.g. useListUsersQuery); called with the URL's list state. */
  useList: (params: ListParams) => ServerListTableProps<Row>['list'];
  /** Extra controls beside the search box (e.g. a status filter), from the list's state. */
  toolbar?: (state: ListUrlState, update: ListState['update']) => ReactNode;
}

/**
 * The page of a server-paginated list that is not a resource-engine entity (users, tenants): its
 * heading, and the table of the list call for the state kept in the URL.
 */
export function ServerListPage<Row extends { id: string }>({ description, create, useList, toolbar, ...table }: ServerListPageProps<Row>) {
  const { state, update } = useListUrlState(table.spec);
  const params = useMemo(() => listParams(state), [state]);
  const list = useList(params);
  return (
    <Stack spacing={3}>
      <ListPageHeader title={table.title} description={description} create={create} />
      <ServerListTable<Row> {...table} state={state} update={update} list={list} toolbar={toolbar?.(state, update)} />
    </Stack>
  );
}
