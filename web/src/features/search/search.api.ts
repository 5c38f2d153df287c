import type { SearchResponse, SearchResult } from '@intelnotes/server/contracts';
import { api } from '../../api/api';
import { resourceTags, type ResourcePage } from '../../api/resources';

export type { SearchResponse, SearchResult };


export interface SearchArgs {
  q: string;
  /** Results per type (the API allows 1–50, 10 by default). */
  limit?: number;
  /** Result types to search (comma-separated); all of SPEC §2's by default. */
  type?: string;
}

/** A result type's hits counted (null when its list could not be read). */
export type TypeCount = { count: number; estimate: boolean } | null;

const searchApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * How many records of each resource match a search, for the advanced search's chips: each
     * list with `search=q&limit=1`, in parallel, by API path. A list that fails counts as null;
     * the query fails only when every one does.
     */
    searchCounts: build.query<Record<string, TypeCount>, { q: string; paths: string[] }>({
      async queryFn({ q, paths }, _api, _extra, baseQuery) {
        const answers = await Promise.all(
          paths.map((path) => baseQuery({ url: `${path.replace(/^\/+|\/+$/g, '')}/`, params: { search: q, limit: '1' } })),
        );
        const failed = answers.find((answer) => answer.error)?.error;
        if (failed && answers.every((answer) => answer.error)) return { error: failed };
        const counts: Record<string, TypeCount> = {};
        answers.forEach((answer, index) => {
          const page = answer.data as ResourcePage | undefined;
          counts[paths[index]!] = page ? { count: page.count, estimate: page.count_is_estimate === true } : null;
        });
        return { data: counts };
      },
      providesTags: (_counts, _error, { paths }) => paths.map((path) => resourceTags.list(path)),
    }),
    search: build.query<SearchResponse, SearchArgs>({
      query: ({ q, limit, type }) => ({ url: 'search/', params: { q, ...(limit === undefined ? {} : { limit }), ...(type ? { type } : {}) } }),
    }),
  }),
});

export const { useSearchQuery, useSearchCountsQuery } = searchApi;
