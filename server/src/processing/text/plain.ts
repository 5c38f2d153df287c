import { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import { Parser } from 'htmlparser2';
import { cutAtCodePoint } from './builder.ts';
import { type ExtractionContext, throwIfAborted, yieldToEventLoop } from './context.ts';
import { TextExtractionError } from './types.ts';

export interface DecodedText {
  text: string;
  /** Set when the bytes were not UTF-8 and were read another way. */
  warning?: string;
}

/** Text from bytes: a UTF-8 or UTF-16 byte-order mark decides; else UTF-8, else Windows-1252. */
export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)) };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)) };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    // The WHATWG 'latin1' label is Windows-1252: Latin-1 plus the curly quotes and dashes it is usually written with.
    return { text: new TextDecoder('latin1').decode(bytes), warning: 'The text is not UTF-8; it was read as Windows-1252 (Latin-1)' };
  }
}

/** Plain text and Markdown: the text as it is (Markdown's syntax reads well enough as text). */
export function extractPlainText(decoded: DecodedText, ctx: ExtractionContext): void {
  if (decoded.warning) ctx.out.warn(decoded.warning);
  ctx.out.append(decoded.text);
}

const CSV_CHUNK_CHARS = 64 * 1024;

/** CSV and TSV: one line per record, cells joined with " | ", each labelled "row N". */
export async function extractDelimited(decoded: DecodedText, delimiter: string, ctx: ExtractionContext): Promise<void> {
  if (decoded.warning) ctx.out.warn(decoded.warning);
  const { text } = decoded;
  function* chunks() {
    for (let offset = 0; offset < text.length; ) {
      const chunk = cutAtCodePoint(text.slice(offset, offset + CSV_CHUNK_CHARS), CSV_CHUNK_CHARS - 1);
      yield chunk;
      offset += chunk.length;
    }
  }
  const records = Readable.from(chunks()).pipe(
    parseCsv({ delimiter, bom: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true, info: true }),
  );
  let processed = 0;
  const start = ctx.out.checkpoint();
  try {
    for await (const { record, info } of records as AsyncIterable<{ record: string[]; info: { records: number; bytes: number } }>) {
      if (ctx.out.full) {
        ctx.out.overflowed = true;
        break;
      }
      if ((processed += 1) % 1000 === 0) {
        throwIfAborted(ctx.signal);
        ctx.progress(info.bytes / text.length);
      }
      const cells = record.map((cell) => cell.trim()).filter((cell) => cell !== '');
      if (cells.length > 0) ctx.out.append(cells.join(' | '), `row ${info.records}`, '\n');
    }
  } catch (error) {
    if (error instanceof TextExtractionError) throw error;
    // Still text worth reading, without the table's structure.
    ctx.out.rollback(start);
    ctx.out.warn(`The file could not be read as a table (${(error as Error).message}); it was read as plain text`);
    ctx.out.append(text);
  } finally {
    records.destroy();
  }
}

/** JSON: each string value on its own line after its key path ("people[0].name: Jane Doe"). */
export async function extractJson(decoded: DecodedText, ctx: ExtractionContext): Promise<void> {
  let root: unknown;
  try {
    root = JSON.parse(decoded.text);
  } catch (error) {
    // Starts like JSON but is not (a log of JSON lines, a cut-off export): still text worth reading.
    ctx.out.warn(`The file looks like JSON but does not parse (${(error as Error).message}); it was read as plain text`);
    extractPlainText(decoded, ctx);
    return;
  }
  // Depth first with an explicit stack: a deeply nested document must not overflow the call stack.
  const stack: Array<[string, unknown]> = [['', root]];
  let visited = 0;
  while (stack.length > 0 && !ctx.out.full) {
    const [path, value] = stack.pop()!;
    if ((visited += 1) % 10_000 === 0) {
      throwIfAborted(ctx.signal);
      await yieldToEventLoop();
    }
    if (typeof value === 'string') {
      if (value.trim() !== '') ctx.out.append(path ? `${path}: ${value}` : value, `key ${path || '(root)'}`, '\n');
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) stack.push([`${path}[${index}]`, value[index]]);
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, child] = entries[index]!;
        stack.push([path ? `${path}.${key}` : key, child]);
      }
    }
  }
  if (stack.length > 0) ctx.out.overflowed = true;
}

/** XML (other than HTML): its text nodes, one element's text per line. */
export function extractXml(decoded: DecodedText, ctx: ExtractionContext): void {
  const lines: string[] = [];
  let current = '';
  const parser = new Parser(
    {
      ontext(text) {
        current += text;
      },
      onclosetag() {
        if (current.trim() !== '') lines.push(current.trim());
        current = '';
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(decoded.text);
  if (current.trim() !== '') lines.push(current.trim());
  ctx.out.append(lines.join('\n'));
}
