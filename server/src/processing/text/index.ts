/**
 * Text from files (docs/processing.md, "Text from files"): a pure library, no database.
 * `extractText` reads any supported file into text with labelled segments;
 * `closeOcrWorker` ends the shared OCR worker (at shutdown, or after tests).
 */
export { extractText } from './extract.ts';
export { closeOcrWorker } from './ocr.ts';
export { DEFAULT_TEXT_LIMITS, type ExtractedText, TextExtractionError, type TextExtractionErrorCode, type TextLimits, type TextSegment } from './types.ts';
