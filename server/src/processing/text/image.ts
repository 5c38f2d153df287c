import { type ExtractionContext, throwIfAborted } from './context.ts';
import { type Recognized, recognizeImage } from './ocr.ts';
import { TextExtractionError } from './types.ts';

/** Types tesseract's image reader (Leptonica) decodes. */
export const OCR_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/tiff', 'image/webp', 'image/bmp']);

/**
 * Decoded pixels allowed: ~40 megapixels (an A4 page at 600 dpi is 35). A decompression
 * bomb (a tiny PNG declaring 100,000 × 100,000 pixels) is refused before it is decoded.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

const be16 = (bytes: Uint8Array, at: number) => (bytes[at]! << 8) | bytes[at + 1]!;
const be32 = (bytes: Uint8Array, at: number) => be16(bytes, at) * 0x10000 + be16(bytes, at + 2);
const le16 = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8);
const le32 = (bytes: Uint8Array, at: number) => le16(bytes, at) + le16(bytes, at + 2) * 0x10000;

/** Width and height from the image's header, where the format puts them plainly; else null. */
export function imageDimensions(bytes: Uint8Array, mime: string): { width: number; height: number } | null {
  if (bytes.length < 32) return null;
  switch (mime) {
    case 'image/png':
      return { width: be32(bytes, 16), height: be32(bytes, 20) };
    case 'image/bmp':
      return { width: Math.abs(le32(bytes, 18) | 0), height: Math.abs(le32(bytes, 22) | 0) };
    case 'image/webp': {
      const chunk = String.fromCharCode(...bytes.subarray(12, 16));
      if (chunk === 'VP8X') return { width: 1 + (bytes[24]! | (bytes[25]! << 8) | (bytes[26]! << 16)), height: 1 + (bytes[27]! | (bytes[28]! << 8) | (bytes[29]! << 16)) };
      if (chunk === 'VP8 ') return { width: le16(bytes, 26) & 0x3fff, height: le16(bytes, 28) & 0x3fff };
      if (chunk === 'VP8L') {
        const bits = le32(bytes, 21);
        return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
      }
      return null;
    }
    case 'image/jpeg': {
      // The first start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC) holds the size.
      let at = 2;
      while (at + 9 < bytes.length) {
        if (bytes[at] !== 0xff) return null;
        const marker = bytes[at + 1]!;
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
          return { width: be16(bytes, at + 7), height: be16(bytes, at + 5) };
        }
        at += 2 + be16(bytes, at + 2);
      }
      return null;
    }
    case 'image/tiff':
      return tiffDimensions(bytes);
    default:
      return null;
  }
}

/** ImageWidth (tag 256) and ImageLength (257) from a TIFF's first directory, either byte order. */
function tiffDimensions(bytes: Uint8Array): { width: number; height: number } | null {
  const little = bytes[0] === 0x49 && bytes[1] === 0x49;
  if (!little && !(bytes[0] === 0x4d && bytes[1] === 0x4d)) return null;
  const u16 = (at: number) => (little ? le16(bytes, at) : be16(bytes, at));
  const u32 = (at: number) => (little ? le32(bytes, at) : be32(bytes, at));
  const directory = u32(4);
  if (directory + 2 > bytes.length) return null;
  let width: number | null = null;
  let height: number | null = null;
  for (let entry = 0, count = u16(directory); entry < count; entry++) {
    const at = directory + 2 + entry * 12;
    if (at + 12 > bytes.length) return null;
    const tag = u16(at);
    if (tag !== 256 && tag !== 257) continue;
    // Type 3 (SHORT) keeps its value in the field's first two bytes; type 4 (LONG) in all four.
    const value = u16(at + 2) === 3 ? u16(at + 8) : u32(at + 8);
    if (tag === 256) width = value;
    else height = value;
  }
  return width !== null && height !== null ? { width, height } : null;
}


const HEIF_TYPES = new Set(['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence']);

function checkSize(width: number, height: number, what = 'The image'): void {
  if (!(width > 0 && height > 0)) throw new TextExtractionError('corrupt', `${what} is not readable: its size cannot be read from its header`);
  if (width * height > MAX_IMAGE_PIXELS) throw new TextExtractionError('too_large', `${what} is too large to read (${width} × ${height} pixels)`);
}

/** Text lines lower than this (pixels, median) are too small for Tesseract: the image is read again, enlarged. */
const OCR_SMALL_LINE = 20;
/** Enlarged so that lines are about this high, at most OCR_MAX_SCALE times. */
const OCR_TARGET_LINE = 32;
const OCR_MAX_SCALE = 4;
/** A first reading this confident is kept as it is, whatever its lines' height. */
const OCR_CONFIDENT = 90;

/**
 * How much to enlarge an image whose text OCR found too small: Tesseract reads letters about
 * 20–30 pixels high best, and a page saved at 72 dpi has lines of 10–12 (the corpus's 612 × 792
 * page images: 8–10% of their words read as they are, 88–95% enlarged). 1 when the lines are
 * large enough or none was found; never past MAX_IMAGE_PIXELS.
 */
export function ocrScale(lineHeight: number | null, width: number, height: number): number {
  if (lineHeight === null || lineHeight <= 0 || lineHeight >= OCR_SMALL_LINE) return 1;
  let scale = Math.min(OCR_MAX_SCALE, OCR_TARGET_LINE / lineHeight);
  while (scale > 1 && width * scale * height * scale > MAX_IMAGE_PIXELS) scale *= 0.9;
  return scale < 1.2 ? 1 : scale;
}

type CanvasModule = typeof import('@napi-rs/canvas');
type Drawable = Parameters<ReturnType<ReturnType<CanvasModule['createCanvas']>['getContext']>['drawImage']>[0];

/** `source` (width × height) drawn `scale` times larger, smoothly, as a PNG. */
async function scaledPng(canvasModule: CanvasModule, source: Drawable, width: number, height: number, scale: number): Promise<Uint8Array> {
  const canvas = canvasModule.createCanvas(Math.round(width * scale), Math.round(height * scale));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = 'high';
  context.drawImage(source, 0, 0, canvas.width, canvas.height);
  const png = await canvas.encode('png');
  canvas.width = 0;
  canvas.height = 0;
  return png;
}

/** RGBA pixels as a PNG (with @napi-rs/canvas), for tesseract, which reads encoded images only. */
export async function rgbaToPng(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Promise<Uint8Array> {
  const canvasModule = await import('@napi-rs/canvas');
  const canvas = canvasModule.createCanvas(width, height);
  const pixels = new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, width * height * 4);
  canvas.getContext('2d').putImageData(new canvasModule.ImageData(pixels, width, height), 0, 0);
  const png = await canvas.encode('png');
  canvas.width = 0;
  canvas.height = 0;
  return png;
}

/**
 * The text OCR reads in an encoded image (width × height): read as it is, and when its lines
 * are too small, read again enlarged (decoded with @napi-rs/canvas, smoothly scaled) — the
 * enlarged reading is kept unless its confidence is clearly lower. A first reading of 90% or
 * more stands (a well-scanned page of small print loses nothing).
 */
export async function recognizeSmallText(image: Uint8Array, width: number, height: number, signal: AbortSignal | undefined, onProgress?: (fraction: number) => void): Promise<Recognized> {
  const first = await recognizeImage(image, signal, onProgress);
  // Read confidently already (small print, well scanned): no second reading.
  if (first.confidence >= OCR_CONFIDENT) return first;
  const scale = ocrScale(first.lineHeight, width, height);
  if (scale === 1) return first;
  const canvasModule = await import('@napi-rs/canvas');
  let decoded;
  try {
    decoded = await canvasModule.loadImage(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  } catch {
    return first; // Skia cannot decode it; Tesseract could: its first reading stands.
  }
  const second = await recognizeImage(await scaledPng(canvasModule, decoded, decoded.width, decoded.height, scale), signal, onProgress);
  return second.confidence >= first.confidence - 5 ? second : first;
}

/** Below this mean confidence OCR's output is noise (a photo, a drawing): kept out, and said. */
export const OCR_NOISE_CONFIDENCE = 30;
/** Below this, the text is kept with a warning that it may be wrong. */
export const OCR_DOUBTFUL_CONFIDENCE = 60;

/**
 * Appends what OCR read of one page or image, recording its confidence (the result's `ocr`), and
 * says so when it is doubtful; text read with next to no confidence is noise and left out.
 * Returns whether text was kept.
 */
export function appendRecognized(ctx: ExtractionContext, recognized: Recognized, label: string, where: string): boolean {
  const confidence = Math.round(recognized.confidence);
  ctx.out.recordOcr(label, confidence);
  // A letter or two found in a picture (a "4" in a diagram) is not text.
  if ((recognized.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) < 3) return false;
  if (confidence < OCR_NOISE_CONFIDENCE) {
    ctx.out.warn(`OCR found only marks it could not read with confidence ${where} (${confidence}%); they were left out`);
    return false;
  }
  if (confidence < OCR_DOUBTFUL_CONFIDENCE) ctx.out.warn(`OCR read ${where} with low confidence (${confidence}%): its text may be wrong`);
  ctx.out.append(recognized.text, label);
  return true;
}

/** Reads each of `pages` (decoded one at a time) with OCR, labelled "page N" when there is more than one. */
async function ocrPages(pages: Array<{ width: number; height: number; png: () => Promise<Uint8Array> }>, ctx: ExtractionContext, kind: string): Promise<void> {
  const read = Math.min(pages.length, ctx.limits.maxPages);
  if (read < pages.length) {
    ctx.out.partial = true;
    ctx.out.warn(`Only the first ${read} of the ${kind}'s ${pages.length} pages were read`);
  }
  let empty = 0;
  for (let index = 0; index < read; index += 1) {
    throwIfAborted(ctx.signal);
    if (ctx.out.full) {
      ctx.out.overflowed = true;
      return;
    }
    const page = pages[index]!;
    let png: Uint8Array;
    try {
      checkSize(page.width, page.height, pages.length > 1 ? `Page ${index + 1} of the ${kind}` : `The ${kind}`);
      png = await page.png();
    } catch (error) {
      if (pages.length === 1 || (error instanceof TextExtractionError && error.code !== 'corrupt')) throw error;
      ctx.out.warn(`Page ${index + 1} of the ${kind} could not be decoded: ${(error as Error).message}`);
      continue;
    }
    const recognized = await recognizeSmallText(png, page.width, page.height, ctx.signal, (fraction) => ctx.progress((index + fraction) / read));
    const many = pages.length > 1;
    if (!appendRecognized(ctx, recognized, many ? `page ${index + 1}` : 'image text', many ? `on page ${index + 1}` : 'in the image')) empty += 1;
  }
  if (empty === read) ctx.out.warn(read > 1 ? `No text was found in the ${kind}'s pages` : 'No text was found in the image');
  else if (empty > 0) ctx.out.warn(`No text was found on ${empty} of the ${kind}'s ${read} pages`);
}

/**
 * A TIFF, every page (directory) of it, decoded with UTIF.js (uncompressed, LZW, PackBits,
 * Deflate, CCITT G3/G4, JPEG) and read with OCR; each page's size is checked before its pixels
 * are decoded.
 */
async function extractTiff(bytes: Uint8Array, ctx: ExtractionContext): Promise<void> {
  const UTIF = (await import('utif2')).default;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let directories;
  try {
    directories = UTIF.decode(buffer);
  } catch (error) {
    throw new TextExtractionError('corrupt', `Not a readable TIFF image: ${(error as Error).message}`, { cause: error });
  }
  const number = (value: unknown) => (Array.isArray(value) ? Number(value[0]) : Number.NaN);
  // Reduced-resolution copies (thumbnails: NewSubfileType bit 0) are not pages.
  const pages = directories.filter((ifd) => (number(ifd['t254']) & 1) !== 1);
  if (pages.length === 0) throw new TextExtractionError('corrupt', 'Not a readable TIFF image: it has no image directory');
  await ocrPages(
    pages.map((ifd) => ({
      width: number(ifd['t256']),
      height: number(ifd['t257']),
      png: async () => {
        try {
          UTIF.decodeImage(buffer, ifd);
          const rgba = UTIF.toRGBA8(ifd);
          if (rgba.length < ifd.width * ifd.height * 4) throw new Error('its pixels are missing');
          return await rgbaToPng(rgba, ifd.width, ifd.height);
        } catch (error) {
          throw new TextExtractionError('corrupt', `Not a readable TIFF image: ${(error as Error).message}`, { cause: error });
        }
      },
    })),
    ctx,
    'TIFF image',
  );
}

/** HEIC/HEIF (phone photos) decoded with libheif compiled to WebAssembly (heic-decode), each image read with OCR. */
async function extractHeif(bytes: Uint8Array, ctx: ExtractionContext): Promise<void> {
  const { heicDecode } = await import('./untyped.ts');
  let images: Awaited<ReturnType<typeof heicDecode.all>>;
  try {
    images = await heicDecode.all({ buffer: bytes });
  } catch (error) {
    throw new TextExtractionError('corrupt', `Not a readable HEIC image: ${(error as Error).message}`, { cause: error });
  }
  try {
    await ocrPages(
      images.map((image) => ({
        width: image.width,
        height: image.height,
        png: async () => {
          let decoded;
          try {
            decoded = await image.decode();
          } catch (error) {
            throw new TextExtractionError('corrupt', `Not a readable HEIC image: ${(error as Error).message}`, { cause: error });
          }
          return rgbaToPng(decoded.data, decoded.width, decoded.height);
        },
      })),
      ctx,
      'HEIC image',
    );
  } finally {
    images.dispose();
  }
}

/** An image: its text through OCR (tesseract.js, English). */
export async function extractImage(bytes: Uint8Array, mime: string, ctx: ExtractionContext): Promise<void> {
  if (!ctx.limits.ocr) throw new TextExtractionError('unsupported', 'Text in images is read with OCR, which is turned off');
  if (mime === 'image/tiff') return extractTiff(bytes, ctx);
  if (HEIF_TYPES.has(mime)) return extractHeif(bytes, ctx);
  if (!OCR_IMAGE_TYPES.has(mime)) throw new TextExtractionError('unsupported', `Text cannot be read from ${mime} images`);
  // An image whose size cannot be read is not decoded: its size is what keeps a bomb out.
  const size = imageDimensions(bytes, mime);
  if (!size) throw new TextExtractionError('corrupt', `Not a readable ${mime} image: its size cannot be read from its header`);
  if (size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new TextExtractionError('too_large', `The image is too large to read (${size.width} × ${size.height} pixels)`);
  }
  await ocrPages([{ width: size.width, height: size.height, png: async () => bytes }], ctx, 'image');
}
