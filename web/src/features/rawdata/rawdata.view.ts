import type { ResourceView } from '../../components/resource-view';
import { fileSize } from './format';

/** Written by the server from the stored file and its processing; never part of a form. */
const SERVER_WRITTEN = [
  'file_name',
  'file_type',
  'file_size',
  'file_sha256',
  'content_kind',
  'duplicate_of',
  'processing_status',
  'processing_stage',
  'processing_error',
  'processing_percent',
  'extraction_method',
  'extracted_chars',
  'processing_warnings',
  'has_warnings',
];

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What the list shows for a status: the stage and percent while processing ("Processing: reading, 5%"). */
export function statusText(row: Record<string, unknown>): string {
  const status = typeof row['processing_status'] === 'string' ? row['processing_status'] : 'pending';
  const stage = typeof row['processing_stage'] === 'string' ? row['processing_stage'] : null;
  const percent = typeof row['processing_percent'] === 'number' ? row['processing_percent'] : null;
  // Something was left out or could not be read (docs/processing.md "Warnings"): never just "Completed".
  if (status === 'completed' && row['has_warnings'] === true) return 'Completed with warnings';
  if (status !== 'processing') return capitalized(status);
  return `Processing${stage ? `: ${stage}` : ''}${percent !== null ? `, ${percent}%` : ''}`;
}

/** Raw data items (research): pasted text and/or a stored file, in a bucket, with a source URL. */
export const rawDataView: ResourceView = {
  kind: 'raw_data',
  basePath: '/rawdata',
  title: 'Raw data',
  emptyText: 'No raw data yet.',
  columns: ['display_name', 'bucket', 'content_kind', 'file_size', 'processing_status', 'visibility', 'updated_at'],
  labels: { display_name: 'Title or file', content_kind: 'Type', processing_status: 'Status', has_warnings: 'Warnings', file_size: 'Size', text: 'Pasted text' },
  omit: SERVER_WRITTEN,
  // "Completed with warnings" whole.
  minWidths: { processing_status: 190 },
  cells: {
    file_size: (value) => (typeof value === 'number' ? fileSize(value) : ''),
    processing_status: (_value, row) => statusText(row),
  },
};

/** The edit form leaves the source to the page's own panel (assign by address, clear). */
export const rawDataEditView: ResourceView = { ...rawDataView, omit: [...SERVER_WRITTEN, 'source'] };

/** Buckets: the folders raw data is collected into; their list is /rawdata?tab=2. */
export const bucketsView: ResourceView = {
  kind: 'buckets',
  basePath: '/rawdata/buckets',
  listPath: '/rawdata?tab=2',
  title: 'Buckets',
  columns: ['display_name', 'process_on_upload', 'updated_at'],
  labels: { process_on_upload: 'Process what is collected into it' },
};

/** Where an item or a bucket is opened: the SPEC gives them edit pages only. */
export const itemEditPath = (id: string) => `/rawdata/${encodeURIComponent(id)}/edit`;
export const bucketEditPath = (id: string) => `/rawdata/buckets/${encodeURIComponent(id)}/edit`;
