import { Parser } from 'htmlparser2';

/**
 * How the text of an office format's XML is laid out: which elements are paragraphs, table
 * rows and cells, line breaks and tabs, and — where other elements hold text that is not the
 * document's (PPTX: only `a:t` holds text) — which elements hold text at all.
 */
export interface XmlTextLayout {
  paragraphs: ReadonlySet<string>;
  rows: ReadonlySet<string>;
  cells: ReadonlySet<string>;
  breaks: ReadonlySet<string>;
  tabs: ReadonlySet<string>;
  /** `text:s` (ODF): its `text:c` attribute says how many spaces. */
  spaces?: string;
  /** Text counts only inside these elements; all text when absent. */
  textIn?: ReadonlySet<string>;
  /** Elements whose content is never text (ODF's tracked deletions, PPTX's field placeholders…). */
  skip?: ReadonlySet<string>;
}

/**
 * The text of one XML part: a line per paragraph, a table row's cells on one line joined with
 * " | " (a cell's own paragraphs joined with spaces). Streaming (htmlparser2, XML mode), so a
 * part's cost is linear in its size.
 */
export function xmlToText(xml: string, layout: XmlTextLayout): string {
  const lines: string[] = [];
  let line = '';
  let textDepth = 0;
  let skipDepth = 0;
  // The cells of the rows being read (tables nest: a stack), each cell's text so far.
  const rows: string[][] = [];
  let cell: string | null = null;
  const cells: Array<string | null> = [];
  const endLine = () => {
    if (rows.length > 0 && cell !== null) {
      const trimmed = line.trim();
      if (trimmed !== '') cell = cell === '' ? trimmed : `${cell} ${trimmed}`;
    } else if (line.trim() !== '') {
      lines.push(line.replace(/\s+$/, ''));
    }
    line = '';
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (skipDepth > 0 || layout.skip?.has(name)) {
          skipDepth += 1;
          return;
        }
        if (layout.textIn?.has(name)) textDepth += 1;
        if (layout.rows.has(name)) {
          endLine();
          cells.push(cell);
          rows.push([]);
          cell = null;
        } else if (layout.cells.has(name) && rows.length > 0) {
          endLine();
          cell = '';
        } else if (layout.breaks.has(name)) line += '\n';
        else if (layout.tabs.has(name)) line += '\t';
        else if (name === layout.spaces) line += ' '.repeat(Math.min(100, Math.max(1, Number(attributes['text:c'] ?? 1) || 1)));
      },
      ontext(text) {
        if (skipDepth > 0 || (layout.textIn && textDepth === 0)) return;
        line += text;
      },
      onclosetag(name) {
        if (skipDepth > 0) {
          skipDepth -= 1;
          return;
        }
        if (layout.textIn?.has(name)) textDepth -= 1;
        if (layout.paragraphs.has(name)) endLine();
        else if (layout.cells.has(name) && rows.length > 0) {
          endLine();
          rows[rows.length - 1]!.push(cell ?? '');
          cell = null;
        } else if (layout.rows.has(name) && rows.length > 0) {
          endLine();
          const row = rows.pop()!.filter((value) => value !== '');
          cell = cells.pop() ?? null;
          if (row.length > 0) {
            const text = row.join(' | ');
            // A table inside a cell: its rows become part of that cell.
            if (rows.length > 0 && cell !== null) cell = cell === '' ? text : `${cell} ${text}`;
            else lines.push(text);
          }
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
  endLine();
  return lines.join('\n');
}

/** The attribute values of every `tag` element in `xml`, in order (a small scan for relationship and manifest parts). */
export function xmlElements(xml: string, tag: string): Array<Record<string, string>> {
  const found: Array<Record<string, string>> = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === tag) found.push(attributes);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
  return found;
}

export const utf8 = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder('utf-8').decode(bytes) : '');
