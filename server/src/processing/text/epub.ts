import path from 'node:path/posix';
import { type ExtractionContext, throwIfAborted } from './context.ts';
import { htmlToText } from './html.ts';
import { resolvePart } from './pptx.ts';
import { TextExtractionError } from './types.ts';
import { utf8, xmlElements } from './xml-text.ts';
import { archiveParts } from './zip.ts';

/** Local name of an XML element or attribute ("opf:item" → "item"). */
const local = (name: string) => name.slice(name.indexOf(':') + 1);

function elements(xml: string, tag: string): Array<Record<string, string>> {
  // Package documents may prefix their elements (opf:item); match on the local name.
  const found: Array<Record<string, string>> = [];
  for (const prefix of ['', 'opf:', 'enc:', 'container:']) found.push(...xmlElements(xml, prefix + tag));
  return found.map((attributes) => Object.fromEntries(Object.entries(attributes).map(([key, value]) => [local(key), value])));
}

/**
 * EPUB 2 and 3: the book's documents in reading order (the package's spine), each read as
 * HTML (block elements on their own lines), labelled "chapter N". A book whose documents are
 * encrypted (DRM, META-INF/encryption.xml) is `encrypted`; obfuscated fonts are not text anyway.
 */
export async function extractEpub(file: Uint8Array, ctx: ExtractionContext): Promise<void> {
  const parts = await archiveParts(file, ctx, 'EPUB e-book');
  const rootfile = elements(utf8(parts.get('META-INF/container.xml')), 'rootfile')[0]?.['full-path'];
  const opfName = rootfile ? decodeURIComponent(rootfile).replace(/^\//, '') : [...parts.keys()].find((name) => name.endsWith('.opf'));
  if (!opfName || !parts.has(opfName)) throw new TextExtractionError('corrupt', 'Not a readable EPUB e-book: its package document (.opf) is missing');
  const opf = utf8(parts.get(opfName));
  const manifest = new Map<string, { href: string; type: string }>();
  for (const item of elements(opf, 'item')) {
    if (item['id'] && item['href']) manifest.set(item['id'], { href: resolvePart(opfName, item['href']), type: item['media-type'] ?? '' });
  }
  let spine = elements(opf, 'itemref')
    .map((ref) => manifest.get(ref['idref'] ?? ''))
    .filter((item): item is { href: string; type: string } => item !== undefined);
  if (spine.length === 0) spine = [...manifest.values()].filter((item) => /x?html/.test(item.type));
  const encrypted = new Set(elements(utf8(parts.get('META-INF/encryption.xml')), 'CipherReference').map((ref) => path.normalize(decodeURIComponent(ref['URI'] ?? ''))));
  const unreadable = spine.filter((item) => encrypted.has(item.href));
  if (spine.length > 0 && unreadable.length === spine.length) throw new TextExtractionError('encrypted', 'The EPUB e-book is encrypted (DRM)');
  if (unreadable.length > 0) ctx.out.warn(`${unreadable.length} of the e-book's ${spine.length} documents are encrypted and were not read`);
  let missing = 0;
  for (const [index, item] of spine.entries()) {
    throwIfAborted(ctx.signal);
    if (ctx.out.full) {
      ctx.out.overflowed = true;
      return;
    }
    if (encrypted.has(item.href)) continue;
    const bytes = parts.get(item.href);
    if (!bytes) {
      missing += 1;
      continue;
    }
    ctx.out.append(htmlToText(utf8(bytes), false), `chapter ${index + 1}`);
    ctx.progress((index + 1) / spine.length);
  }
  if (missing > 0) ctx.out.warn(`${missing} of the e-book's ${spine.length} documents are missing from the file`);
}
