import type { ResourcePage, User, UserInput, UserPatch } from '@intelnotes/server/contracts';
import { api } from '../../api/api';
import type { ListParams } from '../../api/resources';

/** Users of the current tenant, for its admins (server: modules/users). Users are disabled, never deleted. */

export type UserPage = Omit<ResourcePage, 'results'> & { results: User[] };

const LIST = { type: 'User' as const, id: 'LIST' };

export const usersApi = api.enhanceEndpoints({ addTagTypes: ['User'] }).injectEndpoints({
  endpoints: (build) => ({
    listUsers: build.query<UserPage, ListParams>({
      query: (params) => ({ url: 'users/', params }),
      providesTags: (page) => [LIST, ...(page?.results ?? []).map((user) => ({ type: 'User' as const, id: user.id }))],
    }),
    getUser: build.query<User, string>({
      query: (id) => `users/${encodeURIComponent(id)}/`,
      providesTags: (_user, _error, id) => [{ type: 'User', id }],
    }),
    createUser: build.mutation<User, UserInput>({
      query: (body) => ({ url: 'users/', method: 'POST', body }),
      invalidatesTags: (_user, error) => (error ? [] : [LIST, 'Counts']),
    }),
    updateUser: build.mutation<User, { id: string; body: UserPatch }>({
      query: ({ id, body }) => ({ url: `users/${encodeURIComponent(id)}/`, method: 'PATCH', body }),
      invalidatesTags: (_user, error, { id }) => (error ? [] : [LIST, { type: 'User', id }]),
    }),
    resetUserPassword: build.mutation<void, { id: string; password: string }>({
      query: ({ id, password }) => ({ url: `users/${encodeURIComponent(id)}/reset-password/`, method: 'POST', body: { password } }),
    }),
  }),
});

export const { useListUsersQuery, useGetUserQuery, useCreateUserMutation, useUpdateUserMutation, useResetUserPasswordMutation } = usersApi;
