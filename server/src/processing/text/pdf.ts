import { createRequire } from 'node:module';
import path from 'node:path';
import { type ExtractionContext, abortable, throwIfAborted } from './context.ts';
import { appendRecognized, MAX_IMAGE_PIXELS, recognizeSmallText } from './image.ts';
import type { Recognized } from './ocr.ts';
import { TextExtractionError } from './types.ts';

const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));

/** A scanned page is rendered this large (longest side, pixels) for OCR: ~250 dpi on A4. */
const OCR_RENDER_MAX_SIDE = 3000;
/** Pages read between two cleanups of pdf.js's caches (fonts, images, operator lists). */
const CLEANUP_EVERY_PAGES = 20;
/** And never above 300 dpi (a PDF point is 1/72 inch): more only slows tesseract down. */
const OCR_RENDER_MAX_SCALE = 300 / 72;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjsModule: Promise<PdfJs> | null = null;
/** pdf.js's Node build (no DOM needed); loaded on the first PDF. */
const loadPdfJs = () => (pdfjsModule ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

type TextItem = { str: string; transform: number[]; width: number; hasEOL: boolean };

/**
 * The page's text layer, line by line as pdf.js gives it. Text drawn twice at a slight offset —
 * "fake bold", each glyph painted again a fraction of a point to the right — comes from pdf.js
 * as runs that each begin with the glyph the run before ended with ("B", "BO", "OL", "LD": read
 * "BBOOLLDD"); such a repeated glyph is dropped. A narrow glyph (i, l, t, f, j, r) sits so close
 * to its copy that pdf.js keeps both in one run ("plliic"), sometimes set apart by spaces it
 * infers (" ii "): on a line where repeats were found, every glyph is painted twice, so such a
 * pair is one glyph ("ll" painted twice is "llll", made "ll"). pdftotext drops overlapping
 * copies the same way.
 */
async function pageText(page: PdfPage): Promise<string> {
  const content = await page.getTextContent();
  let text = '';
  let lineStart = 0;
  let repeats = 0;
  let previous: TextItem | null = null;
  const endLine = () => {
    if (repeats >= 2) text = text.slice(0, lineStart) + text.slice(lineStart).replace(/ ([iljtfr])\1 /g, '$1').replace(/([iljtfrI1])\1/g, '$1');
    lineStart = text.length;
    repeats = 0;
  };
  for (const item of content.items as Array<TextItem | { type: string }>) {
    if (!('str' in item)) continue;
    let str = item.str;
    if (previous && str.length > 0 && repeatsLastGlyph(previous, item)) {
      str = str.slice(1);
      repeats += 1;
    }
    text += str;
    previous = item.str.length > 0 ? item : previous;
    if (item.hasEOL) {
      text += '\n';
      endLine();
      previous = null;
    }
  }
  endLine();
  return text;
}

/**
 * Whether `item` starts by painting again the glyph `previous` ended with: the same character,
 * on the same line, starting back inside that glyph — before the run's end, by more than a
 * tenth of the font size (more than kerning moves) and less than the whole size (one glyph).
 */
function repeatsLastGlyph(previous: TextItem, item: TextItem): boolean {
  const last = previous.str.at(-1)!;
  if (last !== item.str[0] || last === ' ') return false;
  const size = Math.hypot(item.transform[0]!, item.transform[1]!) || 1;
  if (Math.abs(item.transform[5]! - previous.transform[5]!) > size * 0.1) return false;
  const overlap = previous.transform[4]! + previous.width - item.transform[4]!;
  return overlap > size * 0.1 && overlap < size;
}

/**
 * The pixels per point of the sharpest image the page draws (0: it draws none — a page with
 * neither text nor images is blank, not scanned). Follows the operator list's transforms (save,
 * restore, form XObjects) to the size each image is drawn at.
 */
async function imageDensity(page: PdfPage, ops: PdfJs['OPS']): Promise<number> {
  const operators = await page.getOperatorList();
  type Matrix = [number, number, number, number, number, number];
  const multiply = (m: Matrix, n: Matrix): Matrix => [
    n[0] * m[0] + n[1] * m[2], n[0] * m[1] + n[1] * m[3], n[2] * m[0] + n[3] * m[2], n[2] * m[1] + n[3] * m[3],
    n[4] * m[0] + n[5] * m[2] + m[4], n[4] * m[1] + n[5] * m[3] + m[5],
  ];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  let densest = 0;
  const drawn = (pixelsWide: number) => {
    // An image is drawn into the unit square: its width in points is the transform's x scale.
    const points = Math.hypot(ctm[0], ctm[1]);
    // An image of unknown size: the sharpest render allowed, as before densities were read.
    densest = Math.max(densest, points > 0 && pixelsWide > 0 ? pixelsWide / points : OCR_RENDER_MAX_SCALE);
  };
  operators.fnArray.forEach((op, index) => {
    const args = operators.argsArray[index] as unknown[] | null;
    if (op === ops.save) stack.push(ctm);
    else if (op === ops.restore) ctm = stack.pop() ?? ctm;
    else if (op === ops.transform) ctm = multiply(ctm, args as Matrix);
    else if (op === ops.paintFormXObjectBegin) {
      stack.push(ctm);
      if (Array.isArray(args?.[0])) ctm = multiply(ctm, args[0] as Matrix);
    } else if (op === ops.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (op === ops.paintImageXObject || op === ops.paintImageXObjectRepeat) drawn(Number(args?.[1]) || 0);
    else if (op === ops.paintInlineImageXObject || op === ops.paintImageMaskXObject) drawn(Number((args?.[0] as { width?: number } | undefined)?.width) || 0);
    else if (op === ops.paintInlineImageXObjectGroup) drawn(0);
  });
  return densest;
}

/** The page drawn (with @napi-rs/canvas, pdf.js's canvas in Node) and read with OCR. */
async function ocrPage(
  page: PdfPage,
  density: number,
  ctx: ExtractionContext,
  step: <T>(promise: Promise<T>) => Promise<T>,
  onProgress: (fraction: number) => void,
): Promise<Recognized> {
  let canvasModule: typeof import('@napi-rs/canvas');
  try {
    canvasModule = await import('@napi-rs/canvas');
  } catch (error) {
    throw new TextExtractionError('unsupported', 'The PDF has no text layer; OCR of scanned PDFs is not available', { cause: error });
  }
  const base = page.getViewport({ scale: 1 });
  // At the scan's own resolution (a 72-dpi scan is not smoothed up first: recognizeSmallText
  // enlarges it by its line height, as for an image file), at least a point a pixel, within the caps.
  const scale = Math.min(Math.max(1, density), OCR_RENDER_MAX_SCALE, OCR_RENDER_MAX_SIDE / Math.max(base.width, base.height));
  const viewport = page.getViewport({ scale });
  const canvas = canvasModule.createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  const render = page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as unknown as CanvasRenderingContext2D, viewport });
  await step(render.promise);
  const png = await canvas.encode('png');
  const [canvasWidth, canvasHeight] = [canvas.width, canvas.height];
  // Give the pixels back now rather than at the next garbage collection: pages come one after another.
  canvas.width = 0;
  canvas.height = 0;
  return recognizeSmallText(png, canvasWidth, canvasHeight, ctx.signal, onProgress);
}

function pdfError(error: unknown): TextExtractionError {
  if (error instanceof TextExtractionError) return error;
  const name = (error as { name?: string } | null)?.name;
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') return new TextExtractionError('encrypted', 'The PDF is encrypted with a password', { cause: error });
  return new TextExtractionError('corrupt', `Not a readable PDF file: ${message}`, { cause: error });
}

/**
 * A PDF, page by page: the text layer with pdf.js, or OCR where a page has none (a scan).
 * Each page is released once read, so memory stays that of one page whatever the length.
 * Returns the method: 'pdf-text', 'pdf-ocr' or 'pdf-text+ocr'.
 */
export async function extractPdf(bytes: Uint8Array, ctx: ExtractionContext): Promise<string> {
  const pdfjs = await loadPdfJs();
  throwIfAborted(ctx.signal);
  const task = pdfjs.getDocument({
    // pdf.js takes ownership of (detaches) the buffer it is given: a copy keeps the caller's bytes usable.
    data: new Uint8Array(bytes),
    cMapUrl: `${PDFJS_DIR}/cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${PDFJS_DIR}/standard_fonts/`,
    wasmUrl: `${PDFJS_DIR}/wasm/`,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    isOffscreenCanvasSupported: false,
    // An image inside the PDF is decoded only up to the pixels an image file may have (pdf.js
    // has no limit by default: a small stream declaring 30,000 × 30,000 pixels would take GBs).
    maxImageSize: MAX_IMAGE_PIXELS,
    // Canvases (the OCR render of a scanned page) are capped likewise, 4 bytes per pixel.
    canvasMaxAreaInBytes: MAX_IMAGE_PIXELS * 4,
    verbosity: 0,
  });
  let usedText = false;
  let usedOcr = false;
  // pdf.js's work on the document runs on this thread (its "fake worker" in Node). Destroying
  // the document while a call is under way makes that call fail inside pdf.js, where nobody
  // awaits it (an unhandled rejection): so an abort answers at once, but the document is
  // destroyed only once the call under way has settled.
  let underWay: Promise<unknown> = Promise.resolve();
  const step = <T>(promise: Promise<T>): Promise<T> => {
    underWay = promise.catch(() => undefined);
    return abortable(promise, ctx.signal);
  };
  try {
    const document = await step(task.promise).catch((error: unknown) => {
      throw pdfError(error);
    });
    const pageCount = document.numPages;
    if (pageCount === 0) throw new TextExtractionError('corrupt', 'Not a readable PDF file: it has no pages');
    ctx.setPages(pageCount);
    const readable = Math.min(pageCount, ctx.limits.maxPages);
    const scannedWithoutOcr: number[] = [];
    for (let number = 1; number <= readable; number += 1) {
      throwIfAborted(ctx.signal);
      if (ctx.out.full) {
        ctx.out.overflowed = true;
        break;
      }
      const label = `page ${number}`;
      let density = 0;
      const page = await step(document.getPage(number)).catch((error: unknown) => {
        throw pdfError(error);
      });
      try {
        const text = await step(pageText(page));
        if (text.trim() !== '') {
          usedText = true;
          ctx.out.append(text, label);
        } else if ((density = await step(imageDensity(page, pdfjs.OPS))) === 0) {
          // A blank page: nothing to read.
        } else if (ctx.limits.ocr) {
          const recognized = await ocrPage(page, density, ctx, step, (fraction) => ctx.progress((number - 1 + fraction) / readable));
          appendRecognized(ctx, recognized, label, `on page ${number}`);
          usedOcr = true;
        } else {
          scannedWithoutOcr.push(number);
        }
      } catch (error) {
        throw pdfError(error);
      } finally {
        void underWay.then(() => page.cleanup());
      }
      ctx.progress(number / readable);
      // pdf.js keeps every font and image it has parsed until the document goes: a long PDF
      // grew the reader by ~360 MB over 500 pages. Its caches are dropped every so many pages.
      if (number % CLEANUP_EVERY_PAGES === 0) await step(document.cleanup());
    }
    if (readable < pageCount) {
      ctx.out.partial = true;
      ctx.out.warn(`Only the first ${readable} of the PDF's ${pageCount} pages were read`);
    }
    if (scannedWithoutOcr.length > 0) {
      if (!usedText) throw new TextExtractionError('unsupported', 'The PDF has no text layer and OCR is turned off');
      ctx.out.warn(`Pages without a text layer were not read (OCR is off): ${scannedWithoutOcr.slice(0, 20).join(', ')}`);
    }
  } finally {
    void underWay.then(() => task.destroy()).catch(() => undefined);
  }
  return usedOcr ? (usedText ? 'pdf-text+ocr' : 'pdf-ocr') : 'pdf-text';
}
