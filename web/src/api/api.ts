import { createApi } from '@reduxjs/toolkit/query/react';
import type { ClientInfo, CurrentUser, LoginRequest, LoginResponse } from '@intelnotes/server/contracts';
import { baseQuery } from './base-query';

/**
 * The one RTK Query API of the app. Feature areas add their endpoints with
 * `api.injectEndpoints` so every call shares the base query (auth header, 401 handling).
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  keepUnusedDataFor: 60,
  // Resource records, their lists and filter values (api/resources.ts); entity counts; the
  // tenant info of the host (refreshed when settings or the tenant change).
  tagTypes: ['Resource', 'ResourceFilters', 'Counts', 'Tenant'],
  endpoints: (build) => ({
    getTenant: build.query<ClientInfo, void>({
      query: () => 'tenant/',
      providesTags: ['Tenant'],
    }),
    login: build.mutation<LoginResponse, LoginRequest>({
      query: (body) => ({ url: 'auth/login/', method: 'POST', body }),
    }),
    logout: build.mutation<void, void>({
      query: () => ({ url: 'auth/logout/', method: 'POST' }),
    }),
    me: build.query<CurrentUser, void>({
      query: () => 'auth/me/',
    }),
    /** The user a token belongs to (GET auth/me/ with that token, not the session's): the checkout signs in with it. */
    sessionOfToken: build.mutation<CurrentUser, string>({
      query: (token) => ({ url: 'auth/me/', headers: { Authorization: `Bearer ${token}` } }),
    }),
  }),
});

export const { useGetTenantQuery, useLoginMutation, useLogoutMutation, useMeQuery, useSessionOfTokenMutation } = api;
