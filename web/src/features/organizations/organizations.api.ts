import type { OrganizationSuggestion } from '@intelnotes/server/contracts';
import { api } from '../../api/api';

/** Organization calls beyond the resource engine's: fields suggested from a website. */

export type { OrganizationSuggestion };

const organizationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    suggestedFieldsFromUrl: build.query<OrganizationSuggestion, string>({
      query: (url) => ({ url: 'assets/organizations/suggested_fields_from_url/', params: { url } }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useLazySuggestedFieldsFromUrlQuery } = organizationsApi;
