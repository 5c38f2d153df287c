import type { ResourceView } from '../../components/resource-view';

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
];

/** Raw data items (research): pasted text and/or a stored file, in a bucket, with a source URL. */
export const rawDataView: ResourceView = {
  kind: 'raw_data',
  basePath: '/rawdata',
  title: 'Raw data',
  emptyText: 'No raw data yet.',
  columns: ['display_name', 'bucket', 'content_kind', 'file_size', 'processing_status', 'visibility', 'updated_at'],
  labels: { display_name: 'Title or file', content_kind: 'Type', processing_status: 'Status', file_size: 'Size', text: 'Pasted text' },
  omit: SERVER_WRITTEN,
};

/** The edit form leaves the source to the page's own panel (assign by address, clear). */
export const rawDataEditView: ResourceView = { ...rawDataView, omit: [...SERVER_WRITTEN, 'source'] };

/** Buckets: the folders raw data is collected into; their list is /rawdata?tab=2. */
export const bucketsView: ResourceView = {
  kind: 'buckets',
  basePath: '/rawdata/buckets',
  listPath: '/rawdata?tab=2',
  title: 'Buckets',
  columns: ['display_name', 'updated_at'],
};

/** Where an item or a bucket is opened: the SPEC gives them edit pages only. */
export const itemEditPath = (id: string) => `/rawdata/${encodeURIComponent(id)}/edit`;
export const bucketEditPath = (id: string) => `/rawdata/buckets/${encodeURIComponent(id)}/edit`;
