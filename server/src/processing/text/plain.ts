import { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import { Parser } from 'htmlparser2';
import { cutAtCodePoint } from './builder.ts';
import { type ExtractionContext, throwIfAborted, yieldToEventLoop } from './context.ts';
import { TextExtractionError } from './types.ts';
import type { DecodedText } from '../../storage/text-encoding.ts';

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

/**
 * Appends each non-empty string, number and boolean of `root` as "path: value" (nulls are
 * nothing to read), labelled "key path" (`prefix`
 * before both, for JSON lines). Depth first with an explicit stack: a deeply nested document
 * must not overflow the call stack. Returns false when it stopped at maxChars.
 */
async function appendJson(root: unknown, ctx: ExtractionContext, prefix = '', separator = '\n'): Promise<boolean> {
  const stack: Array<[string, unknown]> = [['', root]];
  let visited = 0;
  while (stack.length > 0 && !ctx.out.full) {
    const [path, value] = stack.pop()!;
    if ((visited += 1) % 10_000 === 0) {
      throwIfAborted(ctx.signal);
      await yieldToEventLoop();
    }
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      // Numbers and booleans too: an amount, a year, a count is part of what a record says.
      const shown = String(value);
      if (shown.trim() !== '') {
        ctx.out.append(path ? `${path}: ${shown}` : shown, `${prefix}key ${path || '(root)'}`, separator);
        separator = '\n';
      }
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
  return stack.length === 0;
}

/** JSON: each value on its own line after its key path ("people[0].name: Jane Doe", "people[0].born: 1971"). */
export async function extractJson(decoded: DecodedText, ctx: ExtractionContext): Promise<void> {
  let root: unknown;
  try {
    root = JSON.parse(decoded.text);
  } catch (error) {
    // Starts like JSON but is not (a cut-off export): still text worth reading.
    ctx.out.warn(`The file looks like JSON but does not parse (${(error as Error).message}); it was read as plain text`);
    extractPlainText(decoded, ctx);
    return;
  }
  await appendJson(root, ctx);
}

const JSON_VALUE_START = /^\s*[[{]/;

/** Whether the text is JSON lines (NDJSON): its first two non-empty lines are each a JSON object or array. */
export function isJsonLines(text: string): boolean {
  let checked = 0;
  let at = 0;
  while (checked < 2 && at < text.length) {
    const end = text.indexOf('\n', at) >>> 0;
    const line = text.slice(at, Math.min(end, text.length)).trim();
    at = Math.min(end, text.length) + 1;
    if (line === '') continue;
    if (!JSON_VALUE_START.test(line)) return false;
    try {
      JSON.parse(line);
    } catch {
      return false;
    }
    checked += 1;
  }
  return checked === 2;
}

/** JSON lines (NDJSON, JSON Lines): each line's strings as with JSON, labelled "line N: key …"; a line that does not parse is kept as text. */
export async function extractJsonLines(decoded: DecodedText, ctx: ExtractionContext): Promise<void> {
  if (decoded.warning) ctx.out.warn(decoded.warning);
  const lines = decoded.text.split(/\r?\n/);
  let broken = 0;
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    if (ctx.out.full) {
      ctx.out.overflowed = true;
      return;
    }
    if (index % 1000 === 999) {
      throwIfAborted(ctx.signal);
      ctx.progress(index / lines.length);
      await yieldToEventLoop();
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      broken += 1;
      ctx.out.append(line, `line ${index + 1}`);
      continue;
    }
    if (!(await appendJson(value, ctx, `line ${index + 1}: `, '\n\n'))) return;
  }
  if (broken > 0) ctx.out.warn(`${broken} of the file's lines are not JSON; they were read as plain text`);
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
