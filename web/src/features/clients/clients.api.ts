import type { Client, ClientDeletion, ClientInput, ClientPatch, ResourcePage } from '@intelnotes/server/contracts';
import { api } from '../../api/api';
import type { ListParams } from '../../api/resources';

/**
 * Tenants ("clients" in the API), for tenant managers (server: modules/clients). A change
 * refreshes the host's own tenant info too, in case the manager edited the tenant they are on.
 */

export type ClientPage = Omit<ResourcePage, 'results'> & { results: Client[] };

const LIST = { type: 'Client' as const, id: 'LIST' };

export const clientsApi = api.enhanceEndpoints({ addTagTypes: ['Client'] }).injectEndpoints({
  endpoints: (build) => ({
    listClients: build.query<ClientPage, ListParams>({
      query: (params) => ({ url: 'clients/', params }),
      providesTags: (page) => [LIST, ...(page?.results ?? []).map((client) => ({ type: 'Client' as const, id: client.id }))],
    }),
    getClient: build.query<Client, string>({
      query: (id) => `clients/${encodeURIComponent(id)}/`,
      providesTags: (_client, _error, id) => [{ type: 'Client', id }],
    }),
    createClient: build.mutation<Client, ClientInput>({
      query: (body) => ({ url: 'clients/', method: 'POST', body }),
      invalidatesTags: (_client, error) => (error ? [] : [LIST]),
    }),
    updateClient: build.mutation<Client, { id: string; body: ClientPatch }>({
      query: ({ id, body }) => ({ url: `clients/${encodeURIComponent(id)}/`, method: 'PATCH', body }),
      invalidatesTags: (_client, error, { id }) => (error ? [] : [LIST, { type: 'Client', id }, 'Tenant']),
    }),
    /** Deletes the tenant and all of its data; `confirm` must repeat the tenant's code. */
    deleteClient: build.mutation<ClientDeletion, { id: string; confirm: string }>({
      query: ({ id, confirm }) => ({ url: `clients/${encodeURIComponent(id)}/`, method: 'DELETE', params: { confirm } }),
      // The deleted tenant's own tag is left alone: refetching it would only answer 404.
      invalidatesTags: (_result, error) => (error ? [] : [LIST]),
    }),
  }),
});

export const { useListClientsQuery, useGetClientQuery, useCreateClientMutation, useUpdateClientMutation, useDeleteClientMutation } =
  clientsApi;
