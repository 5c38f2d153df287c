import type { MergePreview, MergeRequest, MergeResult } from '@intelnotes/server/contracts';
import { api } from './api';

/**
 * Merging duplicates (server/src/resources/merge.ts): a preview of two records, the merge
 * with a choice per field, and its undo. A merge deletes one record and changes others'
 * references, so every cached record, list and count is refetched afterwards.
 */
export type { MergePreview, MergeResult };
export type MergeChoice = 'survivor' | 'other' | 'both';

const base = (path: string) => path.replace(/^\/+|\/+$/g, '');

export const mergeApi = api.injectEndpoints({
  endpoints: (build) => ({
    mergePreview: build.query<MergePreview, { path: string; id: string; other: string }>({
      query: ({ path, id, other }) => ({ url: `${base(path)}/${encodeURIComponent(id)}/merge-preview/`, params: { other } }),
      keepUnusedDataFor: 0,
    }),
    mergeRecords: build.mutation<MergeResult, { path: string; id: string; body: MergeRequest }>({
      query: ({ path, id, body }) => ({ url: `${base(path)}/${encodeURIComponent(id)}/merge/`, method: 'POST', body }),
      invalidatesTags: (_result, error) => (error ? [] : ['Resource', 'ResourceFilters', 'Counts']),
    }),
    undoMerge: build.mutation<unknown, { path: string; auditId: string }>({
      query: ({ path, auditId }) => ({ url: `${base(path)}/merge/${encodeURIComponent(auditId)}/undo/`, method: 'POST' }),
      invalidatesTags: (_result, error) => (error ? [] : ['Resource', 'ResourceFilters', 'Counts']),
    }),
  }),
});

export const { useMergePreviewQuery, useMergeRecordsMutation, useUndoMergeMutation } = mergeApi;
