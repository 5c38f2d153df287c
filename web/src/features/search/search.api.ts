import type { SearchResponse, SearchResult } from '@intelnotes/server/contracts';
import { api } from '../../api/api';

export type { SearchResponse, SearchResult };


export interface SearchArgs {
  q: string;
  /** Results per type (the API allows 1–50, 10 by default). */
  limit?: number;
}

const searchApi = api.injectEndpoints({
  endpoints: (build) => ({
    search: build.query<SearchResponse, SearchArgs>({
      query: ({ q, limit }) => ({ url: 'search/', params: limit === undefined ? { q } : { q, limit } }),
    }),
  }),
});

export const { useSearchQuery } = searchApi;
