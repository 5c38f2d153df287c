import path from 'node:path/posix';
import { type ExtractionContext, throwIfAborted } from './context.ts';
import { TextExtractionError } from './types.ts';
import { utf8, xmlElements, xmlToText, type XmlTextLayout } from './xml-text.ts';
import { archiveParts } from './zip.ts';

/** DrawingML text: paragraphs `a:p` of runs `a:t`, tables `a:tbl` of rows `a:tr` and cells `a:tc`. */
const DRAWINGML: XmlTextLayout = {
  paragraphs: new Set(['a:p']),
  rows: new Set(['a:tr']),
  cells: new Set(['a:tc']),
  breaks: new Set(['a:br']),
  tabs: new Set(),
  textIn: new Set(['a:t']),
};

/** `target` of a relationship of the part `from` (relative to its folder, or absolute from the package root). */
export function resolvePart(from: string, target: string): string {
  const decoded = decodeURIComponent(target.split('#')[0]!);
  return decoded.startsWith('/') ? decoded.slice(1) : path.normalize(path.join(path.dirname(from), decoded));
}

/** The relationships of part `name`: id → { target part, type }. */
export function relationships(parts: Map<string, Uint8Array>, name: string): Map<string, { target: string; type: string }> {
  const rels = `${path.dirname(name)}/_rels/${path.basename(name)}.rels`.replace(/^\.\//, '');
  const found = new Map<string, { target: string; type: string }>();
  for (const rel of xmlElements(utf8(parts.get(rels)), 'Relationship')) {
    if (rel['Id'] && rel['Target'] && rel['TargetMode'] !== 'External') found.set(rel['Id'], { target: resolvePart(name, rel['Target']), type: rel['Type'] ?? '' });
  }
  return found;
}

const slideNumber = (name: string) => Number(/(\d+)\.xml$/.exec(name)?.[1] ?? 0);

/** Pictures read with OCR per presentation (a deck of photos would otherwise take minutes). */
export const MAX_SLIDE_PICTURES = 20;
/** Picture formats OCR reads (EMF, WMF and SVG drawings are not). */
const PICTURE = /\.(png|jpe?g|tiff?|bmp|webp)$/i;
/** What OCR says of a picture without (readable) text. */
const PICTURE_OCR_NEWS = /^(No text was found in the image|OCR found only marks|OCR read in the image with low confidence)/;

/**
 * PPTX: each slide's text in the presentation's order (its slide list, else the parts'
 * numbers), tables as rows of cells joined with " | ", then the slide's speaker notes, then the
 * text OCR finds in its pictures (a chart, a screenshot, a logo; at most MAX_SLIDE_PICTURES in
 * all, each picture once); labelled "slide N", "slide N notes", "slide N picture image1.png".
 */
export async function extractPptx(file: Uint8Array, ctx: ExtractionContext): Promise<void> {
  const parts = await archiveParts(file, ctx, 'PPTX file');
  const presentation = 'ppt/presentation.xml';
  if (!parts.has(presentation)) throw new TextExtractionError('corrupt', 'Not a readable PPTX file: it has no ppt/presentation.xml');
  const rels = relationships(parts, presentation);
  let slides = xmlElements(utf8(parts.get(presentation)), 'p:sldId')
    .map((slide) => rels.get(slide['r:id'] ?? '')?.target)
    .filter((name): name is string => name !== undefined && parts.has(name));
  if (slides.length === 0) {
    slides = [...parts.keys()].filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name)).sort((a, b) => slideNumber(a) - slideNumber(b));
  }
  const picturesRead = new Set<string>();
  let picturesSkipped = 0;
  for (const [index, slide] of slides.entries()) {
    throwIfAborted(ctx.signal);
    if (ctx.out.full) {
      ctx.out.overflowed = true;
      return;
    }
    ctx.out.append(xmlToText(utf8(parts.get(slide)), DRAWINGML), `slide ${index + 1}`);
    const notes = [...relationships(parts, slide).values()].find((rel) => rel.type.endsWith('/notesSlide'));
    if (notes && parts.has(notes.target)) {
      // The notes page repeats the slide's number in a placeholder: a lone number is not a note.
      const text = xmlToText(utf8(parts.get(notes.target)), DRAWINGML);
      if (!/^\s*\d*\s*$/.test(text)) ctx.out.append(text, `slide ${index + 1} notes`);
    }
    if (ctx.limits.ocr) {
      for (const rel of relationships(parts, slide).values()) {
        if (!rel.type.endsWith('/image') || !PICTURE.test(rel.target) || picturesRead.has(rel.target) || !parts.has(rel.target)) continue;
        if (picturesRead.size >= MAX_SLIDE_PICTURES) {
          picturesSkipped += 1;
          continue;
        }
        picturesRead.add(rel.target);
        const name = rel.target.split('/').pop()!;
        const before = ctx.out.warnings.length;
        await ctx.extractNested({ bytes: parts.get(rel.target)!, fileName: name }, `slide ${index + 1} picture ${name}`);
        // Most pictures hold no text (photos, logos): that is no news about the presentation.
        const added = ctx.out.warnings.splice(before).filter((warning) => !PICTURE_OCR_NEWS.test(warning));
        ctx.out.warnings.push(...added);
      }
    }
    ctx.progress((index + 1) / slides.length);
  }
  if (picturesSkipped > 0) ctx.out.warn(`Only the first ${MAX_SLIDE_PICTURES} pictures were read with OCR; ${picturesSkipped} more were not`);
}
