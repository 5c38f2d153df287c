/** Bounds on one extraction, so that no single file can stall or exhaust the process. */
export interface TextLimits {
  /** Characters of text kept; more is cut (at a code-point boundary) and `truncated` set. */
  maxChars: number;
  /** PDF pages read; later pages are skipped with a warning. */
  maxPages: number;
  /** Entries of one zip archive (directories included). */
  maxZipEntries: number;
  /** Bytes decompressed from archives, all nesting levels together. */
  maxExpandedBytes: number;
  /** Containers opened inside containers (a zip in a zip, an e-mail's attachment, …). */
  maxDepth: number;
  /** Whether images and scanned PDF pages are read with OCR. */
  ocr: boolean;
}

export const DEFAULT_TEXT_LIMITS: TextLimits = Object.freeze({
  maxChars: 2_000_000,
  maxPages: 500,
  maxZipEntries: 1000,
  maxExpandedBytes: 200 * 1024 * 1024,
  maxDepth: 3,
  ocr: true,
});

/**
 * Where a stretch of the text came from. Offsets are UTF-16 code units into
 * `ExtractedText.text`, `end` exclusive. A container's segment ("zip entry a.pdf")
 * encloses the segments of what it holds, whose labels then start with the
 * container's ("zip entry a.pdf: page 2"); segments are ordered by `start`.
 */
export interface TextSegment {
  start: number;
  end: number;
  label: string;
}

export interface ExtractedText {
  text: string;
  segments: TextSegment[];
  /** A PDF's page count (all its pages, also those beyond `maxPages`). */
  pages?: number;
  /** Some of the file's text is missing: over `maxChars` or `maxPages` (a warning says which). */
  truncated: boolean;
  /** Plain words for an analyst: parts skipped, encodings guessed, attachments that could not be read. */
  warnings: string[];
  /** OCR's mean word confidence (0–100) for each page or image it read, when OCR was used. */
  ocr?: Array<{ label: string; confidence: number }>;
  /** How the text was read: 'pdf-text', 'pdf-ocr', 'pdf-text+ocr', 'image-ocr', 'docx', 'xlsx', 'csv', 'html', 'email', 'json', 'text', 'markdown', 'xml', 'zip'. */
  method: string;
}

export type TextExtractionErrorCode = 'encrypted' | 'corrupt' | 'unsupported' | 'too_large' | 'missing' | 'aborted';

/** The file cannot be read as text; `message` says why in words an analyst understands. */
export class TextExtractionError extends Error {
  readonly code: TextExtractionErrorCode;

  constructor(code: TextExtractionErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TextExtractionError';
    this.code = code;
  }
}
