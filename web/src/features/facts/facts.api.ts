import type { FactsView, FactTree, SharedFacts, ShareCode, ShareCodeCreated, ShareCodePage } from '@intelnotes/server/contracts';
import type { ThunkAction, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { api } from '../../api/api';
import { resourceTags } from '../../api/resources';

/**
 * The intelbook calls beyond the resource engine's (server/src/modules/facts, docs/intelbooks.md):
 * the reader, a shared subtree, tree moves, the subtree count before a delete, share codes.
 * Facts, sections and categories themselves are created and edited through the engine
 * (api/resources.ts); the reader's cache carries the engine's list tags of all three, so an
 * edit through the shared form refreshes the trees.
 */

/** Who sees a fact (SPEC §3): a child is never more visible than its parent. */
export type Visibility = FactTree['visibility'];

export const FACTS_PATH = '/facts';
export const SECTIONS_PATH = '/facts/sections';
export const CATEGORIES_PATH = '/facts/categories';

/**
 * The server's shapes (server/src/contracts.ts): one fact of the reader with the children the
 * reader may see; the reader's sections and their category groups (facts without a category
 * come last, in a group whose id and name are null); a shared subtree; share codes.
 */
export type { FactTree, ShareCode, ShareCodeCreated };
export type ReaderSection = FactsView['sections'][number];
/** A related record as a tree node carries it. */
export type FactRef = FactTree['keywords'][number];

/** GET facts/view/'s filters (all optional). */
export interface ReaderFilters {
  section?: string;
  category?: string;
  keyword?: string;
  organization?: string;
  person?: string;
  ledger_entry?: string;
  search?: string;
  root?: string;
}

/** Where a fact moves: under `parent` (null: a root of `section`), at `position` (from 0) among its new siblings. */
export interface MoveRequest {
  id: string;
  parent: string | null;
  position: number;
  section?: string;
}

const TREE = { type: 'Resource' as const, id: `${FACTS_PATH}|TREE` };
const SHARE_CODES = { type: 'Resource' as const, id: `${FACTS_PATH}|SHARE_CODES` };
/** The reader is stale whenever facts, sections or categories change (engine forms included). */
const readerTags = [TREE, resourceTags.list(FACTS_PATH), resourceTags.list(SECTIONS_PATH), resourceTags.list(CATEGORIES_PATH)];
/** What a tree change makes stale: the trees, the engine's fact lists, the counts. */
const treeChanged = [TREE, resourceTags.list(FACTS_PATH), 'Counts' as const];

/** Refetches what a tree change makes stale (the editor sends its moves one after another, then asks once). */
export const invalidateTrees = () => factsApi.util.invalidateTags(treeChanged);

const query = (filters: ReaderFilters) =>
  Object.fromEntries(Object.entries(filters).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));

export const factsApi = api.injectEndpoints({
  endpoints: (build) => ({
    factsReader: build.query<FactsView, ReaderFilters>({
      query: (filters) => ({ url: 'facts/view/', params: query(filters) }),
      providesTags: readerTags,
    }),
    sharedSubtree: build.query<SharedFacts, string>({
      query: (code) => `facts/shared/${encodeURIComponent(code)}/`,
      providesTags: readerTags,
    }),
    // Moves and reorders leave the refetch to the caller (invalidateTrees): the editor shows each
    // at once in its cached trees and refetches once its queue of moves is sent.
    moveFact: build.mutation<unknown, MoveRequest>({
      query: ({ id, ...body }) => ({ url: `facts/${encodeURIComponent(id)}/move/`, method: 'POST', body }),
    }),
    reorderFacts: build.mutation<unknown, { parent: string | null; section?: string; ids: string[] }>({
      query: (body) => ({ url: 'facts/reorder/', method: 'POST', body }),
    }),
    subtreeCount: build.query<{ count: number }, string>({
      query: (id) => `facts/${encodeURIComponent(id)}/subtree-count/`,
      keepUnusedDataFor: 0,
    }),
    deleteSubtree: build.mutation<void, string>({
      query: (id) => ({ url: `facts/${encodeURIComponent(id)}/`, method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : [...treeChanged, SHARE_CODES]),
    }),
    shareFact: build.mutation<ShareCodeCreated, { id: string; expires_at: string | null }>({
      query: ({ id, expires_at }) => ({ url: `facts/${encodeURIComponent(id)}/share/`, method: 'POST', body: expires_at ? { expires_at } : {} }),
      invalidatesTags: (_result, error) => (error ? [] : [SHARE_CODES]),
    }),
    /** The newest share codes (a page of the most the API gives). */
    shareCodes: build.query<ShareCodePage, void>({
      query: () => ({ url: 'facts/share-codes/', params: { limit: 100 } }),
      providesTags: [SHARE_CODES],
    }),
    revokeShareCode: build.mutation<void, string>({
      query: (id) => ({ url: `facts/share-codes/${encodeURIComponent(id)}/`, method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : [SHARE_CODES]),
    }),
  }),
});

export const {
  useFactsReaderQuery,
  useSharedSubtreeQuery,
  useMoveFactMutation,
  useReorderFactsMutation,
  useLazySubtreeCountQuery,
  useDeleteSubtreeMutation,
  useShareFactMutation,
  useShareCodesQuery,
  useRevokeShareCodeMutation,
} = factsApi;

type ReaderPatch = ReturnType<typeof factsApi.util.updateQueryData<'factsReader'>>;
/** The store's dispatch as this API's thunks need it (features do not import app/'s typed hooks). */
export type FactsDispatch = ThunkDispatch<ReaderPatch extends ThunkAction<unknown, infer State, unknown, UnknownAction> ? State : never, unknown, UnknownAction>;
