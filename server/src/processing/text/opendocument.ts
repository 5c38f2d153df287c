import { type ExtractionContext, throwIfAborted } from './context.ts';
import { extractSpreadsheet } from './sheets.ts';
import { TextExtractionError } from './types.ts';
import { utf8, xmlToText, type XmlTextLayout } from './xml-text.ts';
import { archiveParts, storedZip } from './zip.ts';

/** OpenDocument text: paragraphs and headings, tables of rows and cells, line breaks, tabs and runs of spaces. */
const ODF_TEXT: XmlTextLayout = {
  paragraphs: new Set(['text:p', 'text:h']),
  rows: new Set(['table:table-row']),
  cells: new Set(['table:table-cell']),
  breaks: new Set(['text:line-break']),
  tabs: new Set(['text:tab']),
  spaces: 'text:s',
  // Deleted text kept for change tracking is not the document's text.
  skip: new Set(['text:tracked-changes', 'office:scripts', 'office:font-face-decls', 'office:automatic-styles']),
};

async function contentXml(file: Uint8Array, ctx: ExtractionContext, what: string): Promise<string> {
  const parts = await archiveParts(file, ctx, what);
  // An encrypted OpenDocument lists <manifest:encryption-data> for its parts in the manifest.
  if (utf8(parts.get('META-INF/manifest.xml')).includes('manifest:encryption-data')) {
    throw new TextExtractionError('encrypted', `The ${what} is encrypted with a password`);
  }
  const content = parts.get('content.xml');
  if (!content) throw new TextExtractionError('corrupt', `Not a readable ${what}: it has no content.xml`);
  return utf8(content);
}

/** ODT (and its template OTT): the body's text, tables as rows of cells joined with " | ". */
export async function extractOdt(file: Uint8Array, ctx: ExtractionContext): Promise<void> {
  ctx.out.append(xmlToText(await contentXml(file, ctx, 'OpenDocument text'), ODF_TEXT));
}

/** ODP: each page (slide) with its notes, labelled "slide N". */
export async function extractOdp(file: Uint8Array, ctx: ExtractionContext): Promise<void> {
  const xml = await contentXml(file, ctx, 'OpenDocument presentation');
  // Pages do not nest: each <draw:page …>…</draw:page> is read on its own.
  let at = 0;
  let page = 0;
  for (;;) {
    throwIfAborted(ctx.signal);
    const start = xml.indexOf('<draw:page ', at);
    const startBare = xml.indexOf('<draw:page>', at);
    const open = start < 0 ? startBare : startBare < 0 ? start : Math.min(start, startBare);
    if (open < 0) break;
    const close = xml.indexOf('</draw:page>', open);
    const end = close < 0 ? xml.length : close + '</draw:page>'.length;
    page += 1;
    if (ctx.out.full) {
      ctx.out.overflowed = true;
      return;
    }
    ctx.out.append(xmlToText(xml.slice(open, end), ODF_TEXT), `slide ${page}`);
    at = end;
  }
}

/** ODS: every sheet's rows, like XLSX (SheetJS reads it, from the parts expanded within the budget). */
export async function extractOds(file: Uint8Array, ctx: ExtractionContext): Promise<void> {
  const parts = await archiveParts(file, ctx, 'OpenDocument spreadsheet');
  if (utf8(parts.get('META-INF/manifest.xml')).includes('manifest:encryption-data')) {
    throw new TextExtractionError('encrypted', 'The OpenDocument spreadsheet is encrypted with a password');
  }
  // SheetJS gets the entries this pass counted, stored again, never the original archive.
  await extractSpreadsheet(storedZip(parts), ctx, 'OpenDocument spreadsheet');
}
