import type { Settings, SettingsPatch } from '@intelnotes/server/contracts';
import { api } from '../../api/api';

/**
 * The current tenant's settings, for its admins (server: modules/settings). Saving refreshes
 * the tenant info every visitor's header and footer are drawn from.
 */
export const settingsApi = api.enhanceEndpoints({ addTagTypes: ['Settings'] }).injectEndpoints({
  endpoints: (build) => ({
    getSettings: build.query<Settings, void>({
      query: () => 'settings/',
      providesTags: ['Settings'],
    }),
    updateSettings: build.mutation<Settings, SettingsPatch>({
      query: (body) => ({ url: 'settings/', method: 'PATCH', body }),
      invalidatesTags: (_settings, error) => (error ? [] : ['Tenant']),
      onQueryStarted: (_body, { dispatch, queryFulfilled }) =>
        queryFulfilled.then(
          ({ data }) => void dispatch(settingsApi.util.upsertQueryData('getSettings', undefined, data)),
          () => undefined,
        ),
    }),
  }),
});

export const { useGetSettingsQuery, useUpdateSettingsMutation } = settingsApi;
