/**
 * How text files are decoded, shared by the upload sniffer (storage/sniff.ts, in the API) and the
 * text readers (processing/text/plain.ts, in workers): kept apart from the readers so the API
 * process loads none of them (api-modules.test.ts).
 */
export interface DecodedText {
  text: string;
  /** Set when the bytes were not UTF-8 and were read another way. */
  warning?: string;
}

export type WideEncoding = 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';

/** The byte-order mark's encoding and length, UTF-32 first (its little-endian mark starts like UTF-16's). */
function byteOrderMark(bytes: Uint8Array): { encoding: WideEncoding | 'utf-8'; length: number } | null {
  const [a, b, c, d] = bytes;
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) return { encoding: 'utf-32le', length: 4 };
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return { encoding: 'utf-32be', length: 4 };
  if (a === 0xef && b === 0xbb && c === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (a === 0xff && b === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (a === 0xfe && b === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/**
 * UTF-16 or UTF-32 without a byte-order mark, told from where the zero bytes fall in the first
 * 4 KiB: text in Latin script has a zero high byte in nearly every code unit (UTF-16LE "A" is
 * 41 00, UTF-32BE is 00 00 00 41). Text of other scripts has no such pattern and is not guessed.
 */
function wideByPattern(bytes: Uint8Array): WideEncoding | null {
  const sample = bytes.subarray(0, Math.min(bytes.length, 4096) & ~3);
  if (sample.length < 8) return null;
  const zeros = [0, 0, 0, 0];
  for (let index = 0; index < sample.length; index += 1) if (sample[index] === 0) zeros[index % 4]! += 1;
  const [z0, z1, z2, z3] = zeros.map((count) => count / (sample.length / 4)) as [number, number, number, number];
  if (z1 > 0.9 && z2 > 0.9 && z3 > 0.9 && z0 < 0.5) return 'utf-32le';
  if (z0 > 0.9 && z1 > 0.9 && z2 > 0.9 && z3 < 0.5) return 'utf-32be';
  if (z1 > 0.7 && z3 > 0.7 && z0 < 0.3 && z2 < 0.3) return 'utf-16le';
  if (z0 > 0.7 && z2 > 0.7 && z1 < 0.3 && z3 < 0.3) return 'utf-16be';
  return null;
}

/** The wide encoding the bytes are in (by byte-order mark, else by pattern), or null for 8-bit text. */
export function wideEncoding(bytes: Uint8Array): WideEncoding | null {
  const mark = byteOrderMark(bytes);
  if (mark) return mark.encoding === 'utf-8' ? null : mark.encoding;
  return wideByPattern(bytes);
}

/** UTF-32 (TextDecoder has no UTF-32): a code point per four bytes, an invalid one as U+FFFD. */
function decodeUtf32(bytes: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pieces: string[] = [];
  let chunk: number[] = [];
  for (let at = 0; at + 4 <= bytes.length; at += 4) {
    const code = view.getUint32(at, littleEndian);
    chunk.push(code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? 0xfffd : code);
    if (chunk.length === 8192) {
      pieces.push(String.fromCodePoint(...chunk));
      chunk = [];
    }
  }
  pieces.push(String.fromCodePoint(...chunk));
  return pieces.join('');
}

/**
 * Text from bytes: a byte-order mark decides (UTF-8, UTF-16, UTF-32, either byte order); else
 * UTF-16 or UTF-32 told from the zero bytes' pattern; else UTF-8 if valid; else Windows-1252
 * (Latin-1), said in a warning.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const mark = byteOrderMark(bytes);
  const encoding = mark?.encoding ?? wideByPattern(bytes);
  const body = bytes.subarray(mark?.length ?? 0);
  switch (encoding) {
    case 'utf-8':
      return { text: new TextDecoder('utf-8').decode(body) };
    case 'utf-16le':
    case 'utf-16be':
      return { text: new TextDecoder(encoding).decode(body), ...(mark ? {} : { warning: `The text has no byte-order mark; it was read as ${encoding.toUpperCase()}` }) };
    case 'utf-32le':
    case 'utf-32be':
      return { text: decodeUtf32(body, encoding === 'utf-32le'), ...(mark ? {} : { warning: `The text has no byte-order mark; it was read as ${encoding.toUpperCase()}` }) };
    default:
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    // The WHATWG 'latin1' label is Windows-1252: Latin-1 plus the curly quotes and dashes it is usually written with.
    return { text: new TextDecoder('latin1').decode(bytes), warning: 'The text is not UTF-8; it was read as Windows-1252 (Latin-1)' };
  }
}
