import type { RelatedGroup, RelatedGroups, RelatedItem, RelatedSummaryPart } from '@intelnotes/server/contracts';
import { api } from './api';

export type { RelatedGroup, RelatedGroups, RelatedItem, RelatedSummaryPart };

/** `GET {path}/{id}/related/`: what points at a record, in groups (server/src/resources/backlinks.ts). */
export interface RelatedArgs {
  /** The record's resource path, e.g. /assets/people. */
  path: string;
  id: string;
  /** One group's key (e.g. library.authors) to page it; every non-empty group otherwise. */
  group?: string;
  limit: number;
  offset?: number;
}

export const relatedApi = api.injectEndpoints({
  endpoints: (build) => ({
    related: build.query<RelatedGroups, RelatedArgs>({
      query: ({ path, id, group, limit, offset = 0 }) => ({
        url: `${path.replace(/^\/+|\/+$/g, '')}/${encodeURIComponent(id)}/related/`,
        params: { limit: String(limit), ...(group ? { group } : {}), ...(offset > 0 ? { offset: String(offset) } : {}) },
      }),
      // Any record written anywhere may point here: every engine write invalidates Counts, and so
      // refreshes what the page shows (the section also asks afresh whenever it is mounted).
      providesTags: ['Counts'],
    }),
  }),
});

export const { useRelatedQuery } = relatedApi;
