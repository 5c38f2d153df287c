import type {
  AuditEntry,
  AuditHistory,
  AvailableFilter,
  BulkRequest,
  BulkResult,
  BulkUndoResult,
  ImportJobAccepted,
  ImportReport,
  Job,
  RelatedRef,
  RelationTarget,
  ResourceMeta,
  ResourcePage,
  ResourceRecord,
} from '@intelnotes/server/contracts';
import { useCallback } from 'react';
import { useDispatch } from 'react-redux';
import { api } from './api';

/**
 * Calls of the server's resource engine (server/src/http/resource.routes.ts): metadata, list,
 * record CRUD, filter values, spreadsheet export and import, for every resource alike.
 * Records are dynamic: their fields are described by `ResourceMeta`.
 */

export type { AuditEntry, AuditHistory, AvailableFilter, BulkRequest, BulkResult, BulkUndoResult, RelatedRef, RelationTarget, ResourcePage, ResourceRecord };

/** Query-string values of a list request: limit, offset, ordering, search and filters. */
export type ListParams = Record<string, string>;

/** A record offered by a picker: a reference plus the label of the resource it belongs to. */
export interface RelationOption extends RelatedRef {
  /** The target's label ("Keyword"), for grouping the options of several targets. */
  group: string;
  /** What tells same-named records apart (the target's detail_fields: "Springfield · info@acme.test"), or null. */
  detail: string | null;
}

/** A record's detail line from the given fields: each non-empty value (the first of a list), joined. */
export function recordDetail(record: ResourceRecord, fields: readonly string[] = []): string | null {
  const parts = fields
    .map((name) => {
      const value = record[name];
      const first = Array.isArray(value) ? value[0] : value;
      return typeof first === 'string' || typeof first === 'number' ? String(first).trim() : '';
    })
    .filter((part) => part !== '');
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** What a picker searches: the target resources, the typed text, and extra filters (e.g. a list kind). */
export interface RelationSearch {
  targets: RelationTarget[];
  search: string;
  params?: ListParams;
}

/** How many records a picker offers per target (SPEC §9 keeps searches small). */
export const PICKER_LIMIT = 20;

// The API path of a resource ("/assets/organizations") relative to the base URL /api/v1.
const base = (path: string) => path.replace(/^\/+|\/+$/g, '');
const listTag = (path: string) => ({ type: 'Resource' as const, id: `${path}|LIST` });
const recordTag = (path: string, id: string) => ({ type: 'Resource' as const, id: `${path}|${id}` });
const filtersTag = (path: string) => ({ type: 'ResourceFilters' as const, id: path });
const historyTag = (path: string, id: string) => ({ type: 'Resource' as const, id: `${path}|${id}|HISTORY` });

/** The cache tags of a resource's lists, records and filter values, for features' own calls that write it. */
export const resourceTags = { list: listTag, record: recordTag, filters: filtersTag };

/** What a bulk action (or its undo) makes stale: the lists, filters and counts, the rows written, and a list that rows were added to. */
const bulkTouched = (path: string, ids: string[], list?: string) => [
  listTag(path),
  filtersTag(path),
  'Counts' as const,
  ...ids.flatMap((id) => [recordTag(path, id), historyTag(path, id)]),
  ...(list ? [listTag('/lists'), recordTag('/lists', list), { type: 'Resource' as const, id: `/lists|${list}|ITEMS` }] : []),
];

/** The file name a download response suggests (Content-Disposition), else `fallback`. */
function downloadName(response: Response, fallback: string): string {
  const header = response.headers.get('Content-Disposition') ?? '';
  const encoded = /filename\*\s*=\s*(?:UTF-8'[^']*')?([^;]+)/i.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim().replace(/^"|"$/g, ''));
    } catch {
      // A malformed encoded name falls through to the plain one.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const name = (plain?.[2] ?? plain?.[1] ?? '').trim();
  return name !== '' ? name : fallback;
}

/** Hands a response body to the browser as a file download. */
export async function saveAsFile(response: Response, fallbackName: string): Promise<{ filename: string }> {
  const filename = downloadName(response, fallbackName);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: some browsers read the object URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { filename };
}

export const resourcesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Fields, filters and ordering of every resource; it only changes with a deployment. */
    resourcesMeta: build.query<ResourceMeta[], void>({
      query: () => 'resources/',
      keepUnusedDataFor: 3600,
    }),
    listResource: build.query<ResourcePage, { path: string; params: ListParams }>({
      query: ({ path, params }) => ({ url: `${base(path)}/`, params }),
      providesTags: (page, _error, { path }) => [
        listTag(path),
        ...(page?.results ?? []).map((record) => recordTag(path, record.id)),
      ],
    }),
    getResource: build.query<ResourceRecord, { path: string; id: string }>({
      query: ({ path, id }) => `${base(path)}/${encodeURIComponent(id)}/`,
      providesTags: (_record, _error, { path, id }) => [recordTag(path, id)],
    }),
    createResource: build.mutation<ResourceRecord, { path: string; body: Record<string, unknown> }>({
      query: ({ path, body }) => ({ url: `${base(path)}/`, method: 'POST', body }),
      invalidatesTags: (_record, error, { path }) => (error ? [] : [listTag(path), filtersTag(path), 'Counts']),
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) =>
        queryFulfilled.then(
          ({ data }) => void dispatch(resourcesApi.util.upsertQueryData('getResource', { path: _arg.path, id: data.id }, data)),
          () => undefined,
        ),
    }),
    updateResource: build.mutation<ResourceRecord, { path: string; id: string; body: Record<string, unknown> }>({
      query: ({ path, id, body }) => ({ url: `${base(path)}/${encodeURIComponent(id)}/`, method: 'PATCH', body }),
      // The answer is the saved record: it replaces the cached one at once, so the record's
      // page never shows the old values while lists (and the record's history) refetch.
      invalidatesTags: (_record, error, { path, id }) => (error ? [] : [listTag(path), filtersTag(path), historyTag(path, id), 'Counts']),
      onQueryStarted: ({ path, id }, { dispatch, queryFulfilled }) =>
        queryFulfilled.then(
          ({ data }) => void dispatch(resourcesApi.util.updateQueryData('getResource', { path, id }, () => data)),
          () => undefined,
        ),
    }),
    // The deleted record's own tag is left alone: refetching it would only answer 404.
    removeResource: build.mutation<void, { path: string; id: string }>({
      query: ({ path, id }) => ({ url: `${base(path)}/${encodeURIComponent(id)}/`, method: 'DELETE' }),
      invalidatesTags: (_result, error, { path }) => (error ? [] : [listTag(path), filtersTag(path), 'Counts']),
    }),
    availableFilters: build.query<{ filters: AvailableFilter[] }, string>({
      query: (path) => `${base(path)}/available-filters/`,
      providesTags: (_result, _error, path) => [filtersTag(path)],
    }),
    /** The list as a spreadsheet (same search, filters and ordering), saved as a download. */
    exportResource: build.mutation<{ filename: string }, { path: string; params: ListParams; fallbackName: string }>({
      query: ({ path, params, fallbackName }) => ({
        url: `${base(path)}/`,
        params: { ...params, format: 'xlsx' },
        // Large spreadsheets take longer than the usual 30 s.
        timeout: 300_000,
        // Errors come back as the usual JSON body; only a success is a file.
        responseHandler: (response) =>
          response.ok ? saveAsFile(response, fallbackName) : response.json().catch(() => null),
      }),
    }),
    /**
     * POST {path}/bulk/: one action on the selected rows (ids) or on every row matching the
     * list query (all_matching), all or nothing; a 409 `bulk_refused` lists the refused rows.
     */
    bulkResource: build.mutation<BulkResult, { path: string; body: BulkRequest }>({
      query: ({ path, body }) => ({ url: `${base(path)}/bulk/`, method: 'POST', body, timeout: 300_000 }),
      invalidatesTags: (result, error, { path, body }) => (error || !result ? [] : bulkTouched(path, result.changed, body.list)),
    }),
    /** A bulk export of the selected rows (xlsx or csv), saved as a download. */
    bulkExport: build.mutation<{ filename: string }, { path: string; body: BulkRequest; fallbackName: string }>({
      query: ({ path, body, fallbackName }) => ({
        url: `${base(path)}/bulk/`,
        method: 'POST',
        body,
        timeout: 300_000,
        responseHandler: (response) => (response.ok ? saveAsFile(response, fallbackName) : response.json().catch(() => null)),
      }),
    }),
    /** Undoes a bulk visibility, keyword or list change (the `undo` path a bulk answer gave). */
    bulkUndo: build.mutation<BulkUndoResult, { path: string; undo: string; list?: string }>({
      query: ({ undo }) => ({ url: undo.replace(/^\/api\/v1\//, ''), method: 'POST' }),
      invalidatesTags: (result, error, { path, list }) => (error || !result ? [] : bulkTouched(path, result.restored, list)),
    }),
    /**
     * Spreadsheet import; a 400 `import_failed` error carries the report too. An import that
     * outlasts the upload's wait answers 202 `{job_id}`: follow it with `useImportJobQuery`,
     * whose result is the report, then `useRefreshAfterImport`.
     */
    uploadResource: build.mutation<ImportReport | ImportJobAccepted, { path: string; file: File; partial: boolean }>({
      query: ({ path, file, partial }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: `${base(path)}/upload/`, method: 'POST', params: { partial: String(partial) }, body, timeout: 300_000 };
      },
      invalidatesTags: (_report, _error, { path }) => [listTag(path), filtersTag(path), 'Counts'],
    }),
    /** An import job's status, progress and (once it succeeded) report: GET jobs/{id}/, polled while it runs. */
    importJob: build.query<Job, string>({
      query: (id) => `jobs/${id}/`,
      keepUnusedDataFor: 0,
    }),
    /**
     * Records of one or more target resources matching a text, for relation pickers:
     * `GET {target.path}/?search=&limit=20` per target, by name. A target the caller may not
     * read is left out; the query fails only when every target does.
     */
    relationOptions: build.query<RelationOption[], RelationSearch>({
      async queryFn({ targets, search, params = {} }, _api, _extra, baseQuery) {
        const answers = await Promise.all(
          targets.map((target) =>
            baseQuery({
              url: `${base(target.path)}/`,
              params: { ...params, limit: String(PICKER_LIMIT), ordering: 'display_name', ...(search.trim() ? { search: search.trim() } : {}) },
            }),
          ),
        );
        const failed = answers.find((answer) => answer.error)?.error;
        if (failed && answers.every((answer) => answer.error)) return { error: failed };
        const options: RelationOption[] = [];
        answers.forEach((answer, index) => {
          const target = targets[index]!;
          for (const record of (answer.data as ResourcePage | undefined)?.results ?? []) {
            options.push({
              id: record.id,
              display_name: record.display_name,
              kind: target.kind,
              group: target.label,
              detail: recordDetail(record, target.detail_fields),
            });
          }
        });
        return { data: options };
      },
      keepUnusedDataFor: 30,
    }),
    /**
     * Names of records of one resource by id (`GET {path}/{id}/` each), e.g. the lists a
     * record's history mentions; null for a record that is gone or not readable.
     */
    recordNames: build.query<Record<string, string | null>, { path: string; ids: string[] }>({
      async queryFn({ path, ids }, _api, _extra, baseQuery) {
        const answers = await Promise.all(ids.map((id) => baseQuery(`${base(path)}/${encodeURIComponent(id)}/`)));
        const names: Record<string, string | null> = {};
        answers.forEach((answer, index) => {
          const record = answer.data as ResourceRecord | undefined;
          names[ids[index]!] = record ? (record.display_name ?? (typeof record['name'] === 'string' ? record['name'] : null)) : null;
        });
        return { data: names };
      },
    }),
    /** Who created, changed, deleted or merged a record, newest first (admins). */
    recordHistory: build.query<AuditHistory, { path: string; id: string }>({
      query: ({ path, id }) => `${base(path)}/${encodeURIComponent(id)}/history/`,
      // Also refreshed by anything that invalidates the record itself (e.g. a merge).
      providesTags: (_history, _error, { path, id }) => [recordTag(path, id), historyTag(path, id)],
    }),
  }),
});

export const {
  useResourcesMetaQuery,
  useListResourceQuery,
  useGetResourceQuery,
  useCreateResourceMutation,
  useUpdateResourceMutation,
  useRemoveResourceMutation,
  useAvailableFiltersQuery,
  useExportResourceMutation,
  useBulkResourceMutation,
  useBulkExportMutation,
  useBulkUndoMutation,
  useUploadResourceMutation,
  useImportJobQuery,
  useRelationOptionsQuery,
  useLazyRelationOptionsQuery,
  useRecordHistoryQuery,
  useRecordNamesQuery,
} = resourcesApi;

/** Whether an upload's answer is an import job (202) rather than the report. */
export const isImportJob = (answer: ImportReport | ImportJobAccepted): answer is ImportJobAccepted => 'job_id' in answer;

/** Drops a resource's cached lists, filter values and counts once an import job has written its rows. */
export function useRefreshAfterImport(): (path: string) => void {
  const dispatch = useDispatch();
  return useCallback((path: string) => {
    dispatch(api.util.invalidateTags([listTag(path), filtersTag(path), 'Counts']));
  }, [dispatch]);
}

/** The metadata of one resource kind (e.g. "organizations"), loaded once per session. */
export function useResourceMeta(kind: string) {
  const result = useResourcesMetaQuery();
  const meta = result.data?.find((entry) => entry.kind === kind);
  return { meta, isLoading: result.isLoading, error: result.error, refetch: result.refetch };
}
