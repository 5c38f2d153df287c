import type { ExtractionContext } from './context.ts';
import { recognizeImage } from './ocr.ts';
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


/** An image: its text through OCR (tesseract.js, English). */
export async function extractImage(bytes: Uint8Array, mime: string, ctx: ExtractionContext): Promise<void> {
  if (!ctx.limits.ocr) throw new TextExtractionError('unsupported', 'Text in images is read with OCR, which is turned off');
  if (!OCR_IMAGE_TYPES.has(mime)) throw new TextExtractionError('unsupported', `Text cannot be read from ${mime} images`);
  // An image whose size cannot be read is not decoded: its size is what keeps a bomb out.
  const size = imageDimensions(bytes, mime);
  if (!size) throw new TextExtractionError('corrupt', `Not a readable ${mime} image: its size cannot be read from its header`);
  if (size.width * size.height > MAX_IMAGE_PIXELS) {
    throw new TextExtractionError('too_large', `The image is too large to read (${size.width} × ${size.height} pixels)`);
  }
  const text = await recognizeImage(bytes, ctx.signal, (fraction) => ctx.progress(fraction));
  if (text.trim() === '') ctx.out.warn('No text was found in the image');
  ctx.out.append(text, 'image text');
}
