import type {
  AvailableFilter,
  ImportReport,
  OrganizationSuggestion,
  ResourceMeta,
  ResourcePage,
  ResourceRecord,
} from '@intelnotes/server/contracts';
import { api } from './api';

/**
 * Calls of the server's resource engine (server/src/resources/routes.ts): metadata, list,
 * record CRUD, filter values, spreadsheet export and import, for every resource alike.
 * Records are dynamic: their fields are described by `ResourceMeta`.
 */

export type { AvailableFilter, OrganizationSuggestion, ResourcePage, ResourceRecord };

/** Query-string values of a list request: limit, offset, ordering, search and filters. */
export type ListParams = Record<string, string>;

// The API path of a resource ("/assets/organizations") relative to the base URL /api/v1.
const base = (path: string) => path.replace(/^\/+|\/+$/g, '');
const listTag = (path: string) => ({ type: 'Resource' as const, id: `${path}|LIST` });
const recordTag = (path: string, id: string) => ({ type: 'Resource' as const, id: `${path}|${id}` });
const filtersTag = (path: string) => ({ type: 'ResourceFilters' as const, id: path });

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
async function saveAsFile(response: Response, fallbackName: string): Promise<{ filename: string }> {
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
      // page never shows the old values while lists refetch.
      invalidatesTags: (_record, error, { path }) => (error ? [] : [listTag(path), filtersTag(path), 'Counts']),
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
    /** Spreadsheet import; a 400 `import_failed` error carries the report too. */
    uploadResource: build.mutation<ImportReport, { path: string; file: File; partial: boolean }>({
      query: ({ path, file, partial }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: `${base(path)}/upload/`, method: 'POST', params: { partial: String(partial) }, body, timeout: 300_000 };
      },
      invalidatesTags: (_report, _error, { path }) => [listTag(path), filtersTag(path), 'Counts'],
    }),
    suggestedFieldsFromUrl: build.query<OrganizationSuggestion, string>({
      query: (url) => ({ url: 'assets/organizations/suggested_fields_from_url/', params: { url } }),
      keepUnusedDataFor: 0,
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
  useUploadResourceMutation,
  useLazySuggestedFieldsFromUrlQuery,
} = resourcesApi;

/** The metadata of one resource kind (e.g. "organizations"), loaded once per session. */
export function useResourceMeta(kind: string) {
  const result = useResourcesMetaQuery();
  const meta = result.data?.find((entry) => entry.kind === kind);
  return { meta, isLoading: result.isLoading, error: result.error, refetch: result.refetch };
}
