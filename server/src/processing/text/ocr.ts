import { createRequire } from 'node:module';
import path from 'node:path';
import Tesseract from 'tesseract.js';
import { abortable, throwIfAborted } from './context.ts';
import { TextExtractionError } from './types.ts';

const require = createRequire(import.meta.url);

/**
 * English LSTM data from the @tesseract.js-data/eng npm package (the "best_int" model the
 * LSTM engine uses), read from node_modules: with langPath a local folder and the cache off,
 * tesseract.js never fetches anything.
 */
export const ENGLISH_DATA_DIR = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

/** An idle worker is ended after this long: it holds ~100 MB of WebAssembly memory. */
const IDLE_STOP_MS = 15_000;

let worker: Promise<Tesseract.Worker> | null = null;
let idleTimer: NodeJS.Timeout | null = null;
/** Recognitions run one at a time on the one worker; each waits for the one before. */
let queue: Promise<unknown> = Promise.resolve();
let reportProgress: ((fraction: number) => void) | null = null;

function startWorker(): Promise<Tesseract.Worker> {
  return Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    langPath: ENGLISH_DATA_DIR,
    gzip: true,
    cacheMethod: 'none',
    logger: (message) => {
      if (message.status === 'recognizing text') reportProgress?.(message.progress);
    },
    // Errors reach the caller through the rejected recognize(); without a handler tesseract.js also logs them.
    errorHandler: () => undefined,
  }).then(async (instance) => {
    // Tesseract's own automatic layout (tesseract.js defaults to one uniform block, which reads a
    // table's rows out of order and drops some), and its debug chatter ("Estimating resolution…")
    // kept out of the process's output.
    await instance.setParameters({ tessedit_pageseg_mode: Tesseract.PSM.AUTO, debug_file: '/dev/null' });
    return instance;
  });
}

/** Ends the OCR worker (if any); the next recognition starts a new one. */
export async function closeOcrWorker(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const running = worker;
  worker = null;
  if (running) await running.then((instance) => instance.terminate()).catch(() => undefined);
}

function scheduleIdleStop(): void {
  if (!worker) return;
  idleTimer = setTimeout(() => void closeOcrWorker(), IDLE_STOP_MS);
  idleTimer.unref();
}

export interface Recognized {
  text: string;
  /** Tesseract's mean word confidence, 0–100. */
  confidence: number;
  /** The median height of the text lines found, in pixels (null when none was). */
  lineHeight: number | null;
}

function medianLineHeight(blocks: Tesseract.Block[] | null): number | null {
  const heights = (blocks ?? []).flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines.map((line) => line.bbox.y1 - line.bbox.y0))).sort((a, b) => a - b);
  return heights.length > 0 ? heights[Math.floor(heights.length / 2)]! : null;
}

/**
 * The text tesseract reads in an image (PNG, JPEG, TIFF, WebP, BMP), deskewed first (Tesseract
 * measures the text lines' slant and rotates the image when it is over 0.3°), and its mean
 * confidence. Aborting ends the worker, the only way to stop a recognition under way.
 */
export function recognizeImage(image: Uint8Array, signal: AbortSignal | undefined, onProgress?: (fraction: number) => void): Promise<Recognized> {
  const run = queue.then(async () => {
    throwIfAborted(signal);
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    worker ??= startWorker();
    const current = worker;
    reportProgress = onProgress ?? null;
    try {
      const instance = await abortable(current, signal, () => void closeOcrWorker());
      const result = await abortable(
        instance.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), { rotateAuto: true }, { text: true, blocks: true }),
        signal,
        () => void closeOcrWorker(),
      );
      return { text: result.data.text, confidence: result.data.confidence, lineHeight: medianLineHeight(result.data.blocks) };
    } catch (error) {
      if (error instanceof TextExtractionError) throw error;
      // A failed recognition may leave the worker in any state: start afresh next time.
      void closeOcrWorker();
      const detail = error instanceof Error ? error.message : String(error);
      throw new TextExtractionError('corrupt', `The image could not be decoded for OCR (${detail.replace(/^Error: /, '')})`, { cause: error });
    } finally {
      reportProgress = null;
      scheduleIdleStop();
    }
  });
  queue = run.catch(() => undefined);
  return run;
}
