/**
 * Reader packages that ship no types: loaded with require (they are CommonJS) and typed here
 * with only what the readers use.
 */
import { createRequire } from 'node:module';
import type { Transform } from 'node:stream';

const require = createRequire(import.meta.url);

interface WordTextOptions {
  filterUnicode?: boolean;
  includeFooters?: boolean;
  includeHeadersAndFooters?: boolean;
  includeBody?: boolean;
}

export interface WordDocument {
  getBody(options?: WordTextOptions): string;
  getFootnotes(options?: WordTextOptions): string;
  getEndnotes(options?: WordTextOptions): string;
  getHeaders(options?: WordTextOptions): string;
  getAnnotations(options?: WordTextOptions): string;
  getTextboxes(options?: WordTextOptions): string;
}

/** word-extractor: Word 97–2003 documents. */
export const WordExtractor = require('word-extractor') as new () => { extract(source: Buffer): Promise<WordDocument> };

interface HeicImage {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/** heic-decode (libheif in WebAssembly): every image of a HEIF file, each decoded on demand. */
export const heicDecode = require('heic-decode') as {
  all(input: { buffer: Uint8Array }): Promise<Array<{ width: number; height: number; decode(): Promise<HeicImage> }> & { dispose(): void }>;
};

export interface RtfProcessor {
  _pushOutput(data: string): void;
  _state: { allDestinations?: Record<string, boolean> };
}

/** rtf-stream-parser's plain-text converter (its package exports only the de-encapsulator). */
export const ToPlainText = (
  require('rtf-stream-parser/dist/src/ToPlainText.js') as {
    ToPlainText: new (options: { decode: (bytes: Buffer, encoding: string) => string; warn: (message: string) => void; allowCp0: boolean }) => Transform & {
      _featureHandlers: unknown[];
    };
  }
).ToPlainText;
