import { Readable } from 'node:stream';
import iconv from 'iconv-lite';
import { Tokenize } from 'rtf-stream-parser';
import { type ExtractionContext, throwIfAborted } from './context.ts';
import { TextExtractionError } from './types.ts';
import { type RtfProcessor, ToPlainText } from './untyped.ts';

type Processor = RtfProcessor;

/** Destinations whose text is not the document's: its properties, pictures, embedded objects' data, list and revision tables. */
const NOT_TEXT = ['info', 'pict', 'objdata', 'listtable', 'listoverridetable', 'revtbl', 'rsidtbl', 'generator', 'xmlnstbl', 'themedata', 'colorschememapping', 'datastore', 'latentstyles'];

/**
 * rtf-stream-parser's plain-text converter (it knows destinations, fonts, code pages and \uN
 * escapes) with table structure on top: a cell ends with " | ", a row with a line break.
 */
class RtfToText extends ToPlainText {
  constructor(warn: (message: string) => void) {
    super({ decode: (bytes: Buffer, encoding: string) => iconv.decode(bytes, iconv.encodingExists(encoding) ? encoding : 'cp1252'), warn, allowCp0: true });
    this._featureHandlers.push({
      outputDataFilter: (global: Processor) => {
        const inside = global._state.allDestinations;
        return inside && NOT_TEXT.some((destination) => inside[destination]) ? true : undefined;
      },
      controlHandlers: {
        cell: (global: Processor) => global._pushOutput(' | '),
        nestcell: (global: Processor) => global._pushOutput(' | '),
        row: (global: Processor) => global._pushOutput('\n'),
        page: (global: Processor) => global._pushOutput('\n'),
        sect: (global: Processor) => global._pushOutput('\n'),
      },
    });
  }
}

/** RTF: its text, paragraphs on their own lines, table rows as cells joined with " | ". */
export async function extractRtf(bytes: Uint8Array, ctx: ExtractionContext): Promise<void> {
  const warnings: string[] = [];
  const chunks: string[] = [];
  let length = 0;
  const stream = Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)])
    .pipe(new Tokenize())
    .pipe(new RtfToText((message) => warnings.push(message)));
  try {
    for await (const chunk of stream as AsyncIterable<string | Buffer>) {
      throwIfAborted(ctx.signal);
      const text = String(chunk);
      chunks.push(text);
      // The builder cuts at maxChars; no point converting the rest.
      if ((length += text.length) > ctx.limits.maxChars) {
        ctx.out.overflowed = true;
        break;
      }
    }
  } catch (error) {
    if (error instanceof TextExtractionError) throw error;
    if (chunks.length === 0) throw new TextExtractionError('corrupt', `Not a readable RTF file: ${(error as Error).message}`, { cause: error });
    ctx.out.warn(`The RTF file is damaged; the text before the damage was read (${(error as Error).message})`);
  } finally {
    stream.destroy();
  }
  const text = chunks
    .join('')
    .split(/\r\n?|\n/)
    .map((line) => line.replace(/(?:\s*\|\s*)+$/, '').replace(/^\s*\|\s*/, ''))
    .join('\n');
  ctx.out.append(text);
}
