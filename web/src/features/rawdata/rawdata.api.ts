import type { ExtractedEntity } from '@intelnotes/server/contracts';
import { api } from '../../api/api';
import { resourcesApi, resourceTags, saveAsFile, type ListParams, type ResourceRecord } from '../../api/resources';

/** The engine path of raw data items (GET resources/ says the same). */
export const RAW_DATA_PATH = '/raw-data';

const written = (id?: string) => [
  resourceTags.list(RAW_DATA_PATH),
  resourceTags.filters(RAW_DATA_PATH),
  'Counts' as const,
  ...(id ? [resourceTags.record(RAW_DATA_PATH, id)] : []),
];

/** A call that answers with the item replaces the cached record at once (as the engine's PATCH does). */
const keepRecord = (id: string, dispatch: (action: unknown) => unknown, fulfilled: Promise<{ data: ResourceRecord }>) =>
  fulfilled.then(
    ({ data }) => void dispatch(resourcesApi.util.upsertQueryData('getResource', { path: RAW_DATA_PATH, id }, data)),
    () => undefined,
  );

export const rawDataApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** POST raw-data/{id}/assign-source-url/: reuses the tenant's source of the same address or creates it. */
    assignSourceUrl: build.mutation<ResourceRecord, { id: string; url: string; alias: string | null }>({
      query: ({ id, url, alias }) => ({ url: `raw-data/${encodeURIComponent(id)}/assign-source-url/`, method: 'POST', body: { url, alias } }),
      invalidatesTags: (_record, error, { id }) => (error ? [] : [...written(id), resourceTags.list('/urls')]),
      onQueryStarted: ({ id }, { dispatch, queryFulfilled }) => keepRecord(id, dispatch, queryFulfilled),
    }),
    clearSource: build.mutation<ResourceRecord, string>({
      query: (id) => ({ url: `raw-data/${encodeURIComponent(id)}/clear-source/`, method: 'DELETE' }),
      invalidatesTags: (_record, error, id) => (error ? [] : written(id)),
      onQueryStarted: (id, { dispatch, queryFulfilled }) => keepRecord(id, dispatch, queryFulfilled),
    }),
    /** DELETE raw-data/remove-batch/: all or none, files no longer used removed after commit. */
    removeRawDataBatch: build.mutation<{ deleted: number }, string[]>({
      query: (ids) => ({ url: 'raw-data/remove-batch/', method: 'DELETE', body: { ids } }),
      invalidatesTags: (_result, error) => (error ? [] : written()),
    }),
    /** GET raw-data/export/: the list's rows as xlsx, or with the files as a zip, saved as a download. */
    exportRawData: build.mutation<{ filename: string }, { params: ListParams; withFiles: boolean }>({
      query: ({ params, withFiles }) => ({
        url: 'raw-data/export/',
        params: { ...params, ...(withFiles ? { include: 'files' } : {}) },
        timeout: 600_000,
        responseHandler: (response) =>
          response.ok ? saveAsFile(response, withFiles ? 'raw_data.zip' : 'raw_data.xlsx') : response.json().catch(() => null),
      }),
    }),
    /** GET raw-data/{id}/file/: the stored file as a download (the call needs the bearer header, so no plain link). */
    downloadRawDataFile: build.mutation<{ filename: string }, { id: string; fallbackName: string }>({
      query: ({ id, fallbackName }) => ({
        url: `raw-data/${encodeURIComponent(id)}/file/`,
        timeout: 600_000,
        responseHandler: (response) => (response.ok ? saveAsFile(response, fallbackName) : response.json().catch(() => null)),
      }),
    }),
    /** POST raw-data/process/: a job per item; each becomes pending, and its events keep the rows current. */
    processRawData: build.mutation<{ results: Array<{ id: string; job_id: string }> }, string[]>({
      query: (ids) => ({ url: 'raw-data/process/', method: 'POST', body: { ids } }),
      invalidatesTags: (_result, error, ids) => (error ? [] : ids.length === 1 ? written(ids[0]) : written()),
    }),
    /** POST raw-data/send_to_library/: a library entry per item (sending again updates it). */
    sendToLibrary: build.mutation<{ results: Array<{ id: string; library_entry: string; created: boolean }> }, string[]>({
      query: (ids) => ({ url: 'raw-data/send_to_library/', method: 'POST', body: { ids } }),
      invalidatesTags: (_result, error) => (error ? [] : [resourceTags.list('/library'), 'Counts' as const]),
    }),
    /** GET raw-data/{id}/text/: the text processing read from the item. */
    extractedText: build.query<{ id: string; text: string | null; chars: number | null; method: string | null; truncated: boolean }, string>({
      query: (id) => `raw-data/${encodeURIComponent(id)}/text/`,
      providesTags: (_result, _error, id) => [resourceTags.record(RAW_DATA_PATH, id)],
    }),
    /** GET raw-data/extract-data/: what processing found in the items. */
    extractedData: build.query<{ count: number; results: ExtractedEntity[] }, string[]>({
      query: (ids) => ({ url: 'raw-data/extract-data/', params: { ids: ids.join(',') } }),
      providesTags: (_result, _error, ids) => ids.map((id) => resourceTags.record(RAW_DATA_PATH, id)),
    }),
    /** GET raw-data/extract-data/?format=xlsx, saved as a download. */
    exportExtractedData: build.mutation<{ filename: string }, string[]>({
      query: (ids) => ({
        url: 'raw-data/extract-data/',
        params: { ids: ids.join(','), format: 'xlsx' },
        timeout: 600_000,
        responseHandler: (response) => (response.ok ? saveAsFile(response, 'extracted_data.xlsx') : response.json().catch(() => null)),
      }),
    }),
    /** POST raw-data/analysis-report/: the report of the items named, or of the list's filters; its task id. */
    startAnalysisReport: build.mutation<{ task_id: string }, { ids: string[] } | { filters: Record<string, string> }>({
      query: (body) => ({ url: 'raw-data/analysis-report/', method: 'POST', body }),
    }),
    /** GET raw-data/analysis-report-status/{task_id}/ (polled while the report is written). */
    analysisReportStatus: build.query<AnalysisReportStatus, string>({
      query: (taskId) => `raw-data/analysis-report-status/${encodeURIComponent(taskId)}/`,
    }),
    /** A completed report's file, saved as a download (the call needs the bearer header). */
    downloadAnalysisReport: build.mutation<{ filename: string }, { url: string; fallbackName: string }>({
      query: ({ url, fallbackName }) => ({
        url: url.replace(/^\/api\/v1\//, ''),
        timeout: 600_000,
        responseHandler: (response) => (response.ok ? saveAsFile(response, fallbackName) : response.json().catch(() => null)),
      }),
    }),
    typeCounts: build.query<{ total: number; results: Array<{ type: string; count: number }> }, void>({
      query: () => 'raw-data/type-counts/',
      providesTags: [resourceTags.list(RAW_DATA_PATH)],
    }),
  }),
});

export type { ExtractedEntity };

/** Where an analysis report is (docs/processing.md "Analysis report"). */
export type AnalysisReportStatus =
  | { task_id: string; status: 'pending' | 'running'; percent: number }
  | { task_id: string; status: 'completed'; percent: 100; items: number; links: { xlsx: string; html: string } }
  | { task_id: string; status: 'error'; reason: string };

export const {
  useStartAnalysisReportMutation,
  useAnalysisReportStatusQuery,
  useDownloadAnalysisReportMutation,
  useProcessRawDataMutation,
  useSendToLibraryMutation,
  useExtractedTextQuery,
  useExtractedDataQuery,
  useExportExtractedDataMutation,
  useAssignSourceUrlMutation,
  useClearSourceMutation,
  useRemoveRawDataBatchMutation,
  useExportRawDataMutation,
  useDownloadRawDataFileMutation,
  useTypeCountsQuery,
} = rawDataApi;

/** How one upload ended. */
export type UploadOutcome =
  | { state: 'saved'; item: ResourceRecord }
  | { state: 'failed'; status: number; message: string }
  | { state: 'cancelled' };

export interface UploadHandle {
  done: Promise<UploadOutcome>;
  cancel: () => void;
}

interface UploadOptions {
  /** POST raw-data/ for a new item, PATCH raw-data/{id}/ to replace an item's file. */
  method: 'POST' | 'PATCH';
  id?: string;
  file: File;
  /** The item's fields, sent before the file so the server has them when the bytes arrive. */
  fields: Record<string, string>;
  token: string | null;
  onProgress: (sent: number, total: number) => void;
  /** A 401 on a call made with a token: the session is over. */
  onUnauthorized: () => void;
}

/** A refusal's message: the detail and each field's reasons. */
function refusal(status: number, body: unknown): string {
  const answer = (body ?? {}) as { detail?: unknown; errors?: Record<string, unknown> };
  const detail = typeof answer.detail === 'string' ? answer.detail : `The server answered ${status}.`;
  const reasons = Object.entries(answer.errors ?? {}).flatMap(([field, messages]) =>
    (Array.isArray(messages) ? messages : [messages]).map((message) => `${field}: ${String(message)}`),
  );
  const extra = reasons.filter((reason) => !detail.includes(reason.slice(reason.indexOf(': ') + 2)));
  return [detail, ...extra].join(' ');
}

/**
 * One file to raw data with real upload progress. RTK Query's fetch reports no upload
 * progress, so this is an XMLHttpRequest (its `upload.onprogress`), with the same bearer
 * header and 401 rule as the base query; `cancel` aborts the request, and the server then
 * keeps neither a row nor the file (docs/rawdata.md, "Nothing lost, nothing orphaned").
 */
export function uploadRawDataFile({ method, id, file, fields, token, onProgress, onUnauthorized }: UploadOptions): UploadHandle {
  const request = new XMLHttpRequest();
  const done = new Promise<UploadOutcome>((resolve) => {
    const url = method === 'POST' ? '/api/v1/raw-data/' : `/api/v1/raw-data/${encodeURIComponent(id ?? '')}/`;
    request.open(method, url);
    request.responseType = 'json';
    if (token !== null) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onload = () => {
      if (request.status === 200 || request.status === 201) {
        resolve({ state: 'saved', item: request.response as ResourceRecord });
        return;
      }
      if (request.status === 401 && token !== null) onUnauthorized();
      resolve({ state: 'failed', status: request.status, message: refusal(request.status, request.response) });
    };
    request.onerror = () => resolve({ state: 'failed', status: 0, message: 'The upload was interrupted (network error). Try again.' });
    request.onabort = () => resolve({ state: 'cancelled' });
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    body.append('file', file, file.name);
    request.send(body);
  });
  return { done, cancel: () => request.abort() };
}
