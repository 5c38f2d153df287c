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
export type Visibility = 'hidden' | 'paywalled' | 'public';

export const FACTS_PATH = '/facts';
export const SECTIONS_PATH = '/facts/sections';
export const CATEGORIES_PATH = '/facts/categories';

/** A related record as a tree node carries it. */
export interface FactRef {
  id: string;
  display_name: string | null;
}

/** One fact of the reader with its children, as far as the reader may see them. */
export interface FactTree {
  id: string;
  text: string;
  visibility: Visibility;
  /** Its place among its siblings, from 0. */
  position?: number;
  /** The first day of the period it is true for, with flags for the parts unknown. */
  valid_from?: string | null;
  valid_from_incomplete_day?: boolean;
  valid_from_incomplete_month?: boolean;
  valid_from_incomplete_year?: boolean;
  valid_to?: string | null;
  valid_to_incomplete_day?: boolean;
  valid_to_incomplete_month?: boolean;
  valid_to_incomplete_year?: boolean;
  /** Facts below this one that the paywall hides from this reader. */
  locked_children?: number;
  keywords?: FactRef[];
  organizations?: FactRef[];
  people?: FactRef[];
  ledger_entries?: FactRef[];
  sources_library?: FactRef[];
  sources_raw_data?: FactRef[];
  source_urls?: string[];
  children: FactTree[];
}

export interface ReaderCategory {
  /** null: the section's facts without a category. */
  id: string | null;
  name: string | null;
  description: string | null;
  facts: FactTree[];
}

export interface ReaderSection {
  id: string;
  name: string;
  description: string | null;
  categories: ReaderCategory[];
}

export interface FactsReader {
  sections: ReaderSection[];
  /** Facts the paywall hides from this reader. */
  locked_count: number;
}

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

export interface SharedSubtree {
  /** null when the paywall hides the shared fact itself from this reader (locked_count says how many facts). */
  root: FactTree | null;
  locked_count: number;
  expires_at: string | null;
}

export interface ShareCreated {
  id: string;
  code: string;
  url_path: string;
  expires_at: string | null;
}

/** A share code as admins list them. */
export interface ShareCode {
  id: string;
  code: string;
  url_path: string;
  fact: { id: string; text: string };
  view_count: number;
  last_viewed_at: string | null;
  created_at: string;
  created_by: string | null;
  expires_at: string | null;
  expired: boolean;
  revoked: boolean;
  revoked_at: string | null;
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

const query = (filters: ReaderFilters) =>
  Object.fromEntries(Object.entries(filters).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));

export const factsApi = api.injectEndpoints({
  endpoints: (build) => ({
    factsReader: build.query<FactsReader, ReaderFilters>({
      query: (filters) => ({ url: 'facts/view/', params: query(filters) }),
      providesTags: readerTags,
    }),
    sharedSubtree: build.query<SharedSubtree, string>({
      query: (code) => `facts/shared/${encodeURIComponent(code)}/`,
      providesTags: readerTags,
    }),
    moveFact: build.mutation<unknown, MoveRequest>({
      query: ({ id, ...body }) => ({ url: `facts/${encodeURIComponent(id)}/move/`, method: 'POST', body }),
      invalidatesTags: (_result, _error) => treeChanged,
    }),
    reorderFacts: build.mutation<unknown, { parent: string | null; section?: string; ids: string[] }>({
      query: (body) => ({ url: 'facts/reorder/', method: 'POST', body }),
      invalidatesTags: (_result, _error) => treeChanged,
    }),
    subtreeCount: build.query<{ count: number }, string>({
      query: (id) => `facts/${encodeURIComponent(id)}/subtree-count/`,
      keepUnusedDataFor: 0,
    }),
    deleteSubtree: build.mutation<void, string>({
      query: (id) => ({ url: `facts/${encodeURIComponent(id)}/`, method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : [...treeChanged, SHARE_CODES]),
    }),
    shareFact: build.mutation<ShareCreated, { id: string; expires_at: string | null }>({
      query: ({ id, expires_at }) => ({ url: `facts/${encodeURIComponent(id)}/share/`, method: 'POST', body: expires_at ? { expires_at } : {} }),
      invalidatesTags: (_result, error) => (error ? [] : [SHARE_CODES]),
    }),
    /** The newest share codes (a page of the most the API gives). */
    shareCodes: build.query<{ results: ShareCode[]; count: number }, void>({
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
