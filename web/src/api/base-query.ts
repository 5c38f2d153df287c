import {
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { logout, selectToken, type StateWithSession } from '../lib/session';

// Calls that carry their own credentials, never the session's: login none (a wrong password's
// 401 would otherwise be taken for an expired session), sessionOfToken the token a payment
// returned (api.ts; its 401 says that token is no good, not the session). A failed logout
// call needs no second logout.
const OWN_CREDENTIALS_ENDPOINTS = new Set(['login', 'sessionOfToken']);
const UNAUTHENTICATED_ENDPOINTS = new Set([...OWN_CREDENTIALS_ENDPOINTS, 'logout']);

function sentToken(state: unknown, endpoint: string): string | null {
  if (OWN_CREDENTIALS_ENDPOINTS.has(endpoint)) return null;
  return selectToken(state as StateWithSession);
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/api/v1',
  timeout: 30_000,
  prepareHeaders: (headers, { getState, endpoint }) => {
    const token = sentToken(getState(), endpoint);
    if (token !== null) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

/** fetchBaseQuery plus SPEC §4: a 401 on a call made with a token ends the session. */
export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extraOptions,
) => {
  const token = sentToken(api.getState(), api.endpoint);
  const result = await rawBaseQuery(args, api, extraOptions);
  if (
    result.error?.status === 401 &&
    token !== null &&
    !UNAUTHENTICATED_ENDPOINTS.has(api.endpoint) &&
    // A reply to a request sent before a re-login must not end the new session.
    sentToken(api.getState(), api.endpoint) === token
  ) {
    api.dispatch(logout('expired'));
  }
  return result;
};
