import type { SearchResponse, SearchResult } from '@intelnotes/server/contracts';
import { api } from '../../api/api';

export type { SearchResponse, SearchResult };


export interface SearchArgs {
  q: string;
  /** Results per type (the API allows 1–50, 10 by default). */
  limit?: number;
  /** Result types to search (comma-separated); all of SPEC §2's by default. */
  type?: string;
}

const searchApi = api.injectEndpoints({
  endpoints: (build) => ({
    search: build.query<SearchResponse, SearchArgs>({
      query: ({ q, limit, type }) => ({ url: 'search/', params: { q, ...(limit === undefined ? {} : { limit }), ...(type ? { type } : {}) } }),
    }),
  }),
});

export const { useSearchQuery } = searchApi;
