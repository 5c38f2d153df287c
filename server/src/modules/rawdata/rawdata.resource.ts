/**
 * Raw data (SPEC §3, docs/rawdata.md): buckets, and the items collected into them. An item
 * holds pasted text, a stored file, or both; its file's name, type, size and hash, its
 * processing status and the item it duplicates are set by the server (rawdata.service.ts),
 * never taken from a client's edit.
 */
import { sql } from 'drizzle-orm';
import { boolean, choice, integer, readOnly, relation, strings, text, visibility } from '../../resources/fields.ts';
import { defineResource } from '../../resources/resource.ts';
import { unique } from '../keywords/unique.ts';

export const PROCESSING_STATUSES = ['pending', 'processing', 'completed', 'error'] as const;
/** Where an item being processed is (processing_stage), in order. */
export const PROCESSING_STAGES = ['reading', 'extracting', 'linking', 'suggesting'] as const;
export type ProcessingStage = (typeof PROCESSING_STAGES)[number];
export type ProcessingStatus = (typeof PROCESSING_STATUSES)[number];

/** What an item is (the content_kind column, from the sniffed file type; pasted text is text). */
export const CONTENT_KINDS = ['text', 'pdf', 'image', 'html', 'email', 'spreadsheet', 'presentation', 'document', 'archive', 'audio', 'video', 'other'] as const;
/** How each kind reads in the type column, its filter and the type chips alike ("HTML", never "Html"). */
const CONTENT_KIND_LABELS = {
  text: 'Text', pdf: 'PDF', image: 'Image', html: 'HTML', email: 'Email', spreadsheet: 'Spreadsheet',
  presentation: 'Presentation', document: 'Document', archive: 'Archive', audio: 'Audio', video: 'Video', other: 'Other',
} as const satisfies Record<(typeof CONTENT_KINDS)[number], string>;

/** Warnings kept with an item (the first ones; the last says how many more there were), each at most 500 characters. */
export const MAX_PROCESSING_WARNINGS = 50;

/** Pasted text is searched whole, so it is bounded; longer material is uploaded as a file. */
export const MAX_TEXT_CHARS = 100_000;

export const buckets = defineResource({
  kind: 'buckets',
  type: 'Bucket',
  path: '/raw-data/buckets',
  table: 'raw_data_buckets',
  label: 'Bucket',
  readAccess: 'research',
  writeAccess: 'research',
  search: { fields: { name: 'A' } },
  fields: {
    name: text({ max: 200, required: true }),
    /** Items collected into the bucket are processed at once (docs/processing.md). */
    process_on_upload: boolean(false),
  },
  ordering: ['name'],
  defaultOrdering: 'name',
  filters: [],
  identity: { names: ['name'] },
  beforeSave: [
    unique({
      field: 'name',
      value: (record) => (typeof record['name'] === 'string' ? record['name'] : null),
      // The same expression as the unique index raw_data_buckets_name_key.
      matches: (name) => sql`lower(name) = lower(${name})`,
      message: 'A bucket with this name already exists (names are compared ignoring case).',
    }),
  ],
});

export const rawData = defineResource({
  kind: 'raw_data',
  type: 'RawData',
  path: '/raw-data',
  table: 'raw_data',
  label: 'Raw data item',
  plural: 'Raw data',
  writeAccess: 'research',
  // Multipart bodies (a file with the fields), many files at once, and deletes that remove
  // files no longer used after commit: rawdata.routes.ts.
  ownRoutes: ['create', 'update', 'delete', 'upload'],
  // The text read from the file is searched too, from its own column (never presented: it is
  // long; GET raw-data/{id}/text/ serves it).
  search: { fields: { title: 'A', file_name: 'A', text: 'C' }, serverColumns: { extracted_text: 'D' } },
  summary: ['content_kind', 'processing_status'],
  fields: {
    bucket: relation('buckets', { many: false, inverseLabel: 'Raw data' }),
    title: text({ max: 500 }),
    text: text({ max: MAX_TEXT_CHARS, multiline: true }),
    file_name: readOnly(text({ max: 255 })),
    file_type: readOnly(text({ max: 255 })),
    file_size: readOnly(integer({ min: 0, big: true })),
    file_sha256: readOnly(text({ max: 64 })),
    content_kind: readOnly(choice(CONTENT_KINDS, { labels: CONTENT_KIND_LABELS })),
    source: relation('source', { many: false, inverseLabel: 'Raw data' }),
    duplicate_of: readOnly(relation('raw_data', { many: false, inverseLabel: 'Duplicates' })),
    processing_status: readOnly(choice(PROCESSING_STATUSES, { default: 'pending' })),
    processing_stage: readOnly(text({ max: 100 })),
    processing_error: readOnly(text({ max: 2000, multiline: true })),
    processing_percent: readOnly(integer({ min: 0, max: 100, default: null })),
    extraction_method: readOnly(text({ max: 100 })),
    extracted_chars: readOnly(integer({ min: 0, default: null })),
    /** What reading left out or could not read, in words (docs/processing.md "Warnings"); empty when nothing. */
    processing_warnings: readOnly(strings(MAX_PROCESSING_WARNINGS)),
    /** Whether it has any: "completed with warnings", and a filter. */
    has_warnings: readOnly(boolean(false)),
    visibility: visibility('hidden'),
  },
  ordering: ['title', 'file_name', 'file_size', 'content_kind', 'processing_status'],
  filters: ['bucket', 'content_kind', 'processing_status', 'has_warnings', 'source'],
  dateRanges: ['created_at', 'updated_at'],
});
