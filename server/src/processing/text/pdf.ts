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

async function pageText(page: PdfPage): Promise<string> {
  const content = await page.getTextContent();
  let text = '';
  for (const item of content.items) {
    if (!('str' in item)) continue;
    text += item.str;
    if (item.hasEOL) text += '\n';
  }
  return text;
}

/** Whether the page draws any image: a page with neither text nor images is blank, not scanned. */
async function drawsImages(page: PdfPage, ops: PdfJs['OPS']): Promise<boolean> {
  const imageOps = new Set<number>([ops.paintImageXObject, ops.paintInlineImageXObject, ops.paintImageMaskXObject, ops.paintImageXObjectRepeat, ops.paintInlineImageXObjectGroup]);
  const operators = await page.getOperatorList();
  return operators.fnArray.some((op) => imageOps.has(op));
}

/** The page drawn (with @napi-rs/canvas, pdf.js's canvas in Node) and read with OCR. */
async function ocrPage(
  page: PdfPage,
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
  const scale = Math.min(OCR_RENDER_MAX_SCALE, OCR_RENDER_MAX_SIDE / Math.max(base.width, base.height));
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
      const page = await step(document.getPage(number)).catch((error: unknown) => {
        throw pdfError(error);
      });
      try {
        const text = await step(pageText(page));
        if (text.trim() !== '') {
          usedText = true;
          ctx.out.append(text, label);
        } else if (!(await step(drawsImages(page, pdfjs.OPS)))) {
          // A blank page: nothing to read.
        } else if (ctx.limits.ocr) {
          const recognized = await ocrPage(page, ctx, step, (fraction) => ctx.progress((number - 1 + fraction) / readable));
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
