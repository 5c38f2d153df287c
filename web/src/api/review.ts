import type { ResourceMeta, ResourceRecord, SearchResponse, SuggestionProvenance } from '@intelnotes/server/contracts';
import { api } from './api';
import { resourceTags } from './resources';

/**
 * Review of suggestions (docs/review.md): a reviewed resource's suggestions are served at
 * suggested-entities/{segment}/ by the resource engine, so they are listed, read and edited with
 * the engine's calls (api/resources.ts) on that path; accepting and rejecting go to the record's
 * path (assets/{segment}/{id}/accept_suggestion/, reject_suggestion/).
 */

export type { SuggestionProvenance };

/** A suggestion as the API presents it: the record's fields plus its status and where it was found. */
export type Suggestion = ResourceRecord & { status?: string; provenance?: SuggestionProvenance[] };

/** The word of a reviewed resource in its paths ("organizations" for /assets/organizations). */
export const reviewSegment = (meta: Pick<ResourceMeta, 'path'>): string => meta.path.replace(/\/+$/, '').split('/').pop() ?? '';

/** The API path of a resource's suggestions, e.g. /suggested-entities/organizations. */
export const suggestionsPath = (meta: Pick<ResourceMeta, 'path'>): string => `/suggested-entities/${reviewSegment(meta)}`;

/** The suggestions' API paths that live events announce new rows of (SPEC §4: organizations and people). */
export const SUGGESTION_LISTS = {
  organizations: '/suggested-entities/organizations',
  people: '/suggested-entities/people',
  ledger: '/suggested-entities/ledger',
} as const;

/** The review page of one suggestion (SPEC §2: suggested-entities/organizations/:id/edit). */
export const suggestionReviewPath = (meta: Pick<ResourceMeta, 'path'>, id: string): string =>
  `${suggestionsPath(meta)}/${encodeURIComponent(id)}/edit`;

/** How often a suggestion was mentioned, over all its sources. */
export const mentionCount = (suggestion: Suggestion): number =>
  (suggestion.provenance ?? []).reduce((sum, entry) => sum + entry.mention_count, 0);

/** How many distinct sources (e.g. raw data items) mention it. */
export const sourceCount = (suggestion: Suggestion): number =>
  new Set((suggestion.provenance ?? []).map((entry) => `${entry.source_kind}|${entry.source_id ?? ''}`)).size;

const base = (path: string) => path.replace(/^\/+|\/+$/g, '');

/** What deciding on a suggestion makes stale: the suggestions, the records it may have joined, counts. */
const decided = (meta: Pick<ResourceMeta, 'path'>, linkTo?: string | null) => [
  resourceTags.list(suggestionsPath(meta)),
  resourceTags.list(meta.path),
  resourceTags.filters(meta.path),
  'Counts' as const,
  ...(linkTo ? [resourceTags.record(meta.path, linkTo)] : []),
];

export const reviewApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET assets/{segment}/count/?status=suggested: how many suggestions wait (research users and admins). */
    suggestionCount: build.query<{ count: number }, Pick<ResourceMeta, 'path'>>({
      query: (meta) => ({ url: `${base(meta.path)}/count/`, params: { status: 'suggested' } }),
      providesTags: (_result, _error, meta) => ['Counts', resourceTags.list(suggestionsPath(meta))],
    }),
    /** POST accept_suggestion/: the suggestion becomes a record (same id), or with `linkTo` is merged into that record. */
    acceptSuggestion: build.mutation<ResourceRecord, { meta: Pick<ResourceMeta, 'path'>; id: string; linkTo?: string | null }>({
      query: ({ meta, id, linkTo }) => ({
        url: `${base(meta.path)}/${encodeURIComponent(id)}/accept_suggestion/`,
        method: 'POST',
        body: linkTo ? { link_to: linkTo } : {},
      }),
      // The suggestion's own cached page is left alone: refetching it would only answer 404.
      invalidatesTags: (_record, error, { meta, linkTo }) => (error ? [] : decided(meta, linkTo)),
    }),
    /** POST reject_suggestion/: rejected, and its names not suggested again from its sources. */
    rejectSuggestion: build.mutation<void, { meta: Pick<ResourceMeta, 'path'>; id: string }>({
      query: ({ meta, id }) => ({ url: `${base(meta.path)}/${encodeURIComponent(id)}/reject_suggestion/`, method: 'POST', body: {} }),
      invalidatesTags: (_result, error, { meta }) => (error ? [] : decided(meta)),
    }),
    /**
     * Records a suggestion resembles: the quick search (GET search/, names first, typos and
     * fragments by trigram similarity) on its name, for the resource's type. Suggestions are never
     * in the quick search, so the suggestion itself is not among them.
     */
    similarRecords: build.query<SearchResponse['results'], { type: string; name: string }>({
      query: ({ type, name }) => ({ url: 'search/', params: { q: name, type, limit: 5 } }),
      transformResponse: (response: SearchResponse) => response.results,
      providesTags: ['Resource'],
    }),
  }),
});

export const { useSuggestionCountQuery, useAcceptSuggestionMutation, useRejectSuggestionMutation, useSimilarRecordsQuery } = reviewApi;
