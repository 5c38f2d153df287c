/**
 * extractText on real files made with real tools (fixtures/README.md says how), and on
 * hostile input built here: zip bombs, nesting, huge lines, NUL bytes, aborts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { deflateRawSync, constants as zlibConstants } from 'node:zlib';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { closeOcrWorker, extractText, type TextLimits } from './index.ts';
import { MAX_OFFICE_PARTS } from './zip.ts';
import { labels, rejectsWith, segmentText } from '../../test/extracted-text.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));

const extract = (bytes: Uint8Array | string, limits?: Partial<TextLimits>, signal?: AbortSignal) =>
  extractText(
    { bytes: typeof bytes === 'string' ? strToU8(bytes) : bytes, mime: 'application/octet-stream' },
    { limits, signal: signal ?? AbortSignal.timeout(120_000) },
  );


/**
 * A zip of one deflated entry of `expandedBytes` zeros, built without ever holding them: one
 * megabyte deflated once, ending in a sync flush (byte-aligned, not final), repeated, then a
 * final empty stored block. `declaredBytes` is the size the headers claim (a liar's, or the truth).
 */
/**
 * A DOCX whose central directory points `word/document.xml` at a second copy hidden inside
 * the data of a stored entry (`pad.bin`): reading local headers front to back sees only the
 * first copy; a parser that follows the central directory would read the hidden one.
 */
function docxWithHiddenDocument(): Uint8Array {
  const parts = unzipSync(fixture('report.docx'));
  const hiddenXml = new TextDecoder().decode(parts['word/document.xml']).replace('Quarterly Report', 'Hidden Report');
  const hiddenZip = Buffer.from(zipSync({ 'word/document.xml': [strToU8(hiddenXml), { level: 6 }] }));
  const hiddenCentral = hiddenZip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  const hiddenLocal = hiddenZip.subarray(0, hiddenCentral);
  const outer = Buffer.from(zipSync({ ...Object.fromEntries(Object.entries(parts).map(([name, bytes]) => [name, [bytes, { level: 6 }]])), 'pad.bin': [hiddenLocal, { level: 0 }] }));
  // The stored pad.bin's data starts after its local header (30 bytes, its name, its extra field).
  const padHeader = outer.indexOf(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04])]), outer.indexOf(Buffer.from('pad.bin')) - 30);
  const padData = padHeader + 30 + outer.readUInt16LE(padHeader + 26) + outer.readUInt16LE(padHeader + 28);
  // Repoint the central directory's word/document.xml at it, with the hidden entry's method, CRC and sizes.
  for (let at = outer.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0 && outer.readUInt32LE(at) === 0x02014b50; ) {
    const nameLength = outer.readUInt16LE(at + 28);
    if (outer.toString('latin1', at + 46, at + 46 + nameLength) === 'word/document.xml') {
      hiddenZip.copy(outer, at + 10, hiddenCentral + 10, hiddenCentral + 28);
      outer.writeUInt32LE(padData, at + 42);
    }
    at += 46 + nameLength + outer.readUInt16LE(at + 30) + outer.readUInt16LE(at + 32);
  }
  return new Uint8Array(outer);
}

function zeroBomb(expandedBytes: number, declaredBytes: number): Uint8Array {
  const megabyte = deflateRawSync(new Uint8Array(1 << 20), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  const blocks = Math.ceil(expandedBytes / (1 << 20));
  const finalEmptyBlock = Uint8Array.of(0x01, 0x00, 0x00, 0xff, 0xff);
  const data = Buffer.concat([...Array.from({ length: blocks }, () => megabyte), finalEmptyBlock]);
  const name = Buffer.from('zeros.txt');
  const declared = Math.min(declaredBytes, 0xfffffffe);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(name.length, 28);
  const centralOffset = local.length + name.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return new Uint8Array(Buffer.concat([local, name, data, central, name, end]));
}

/** The start of a Linux executable: a binary type file-type knows and nothing reads text from. */
const ELF = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array<number>(56).fill(0)]);

after(() => closeOcrWorker());

describe('extractText: documents', () => {
  it('reads a PDF page by page, labelled "page N"', async () => {
    const result = await extract(fixture('pages.pdf'));
    assert.equal(result.method, 'pdf-text');
    assert.equal(result.pages, 3);
    assert.deepEqual(labels(result), ['page 1', 'page 2', 'page 3']);
    assert.match(segmentText(result, 'page 2'), /Page 2 of the briefing\. Northwind Traders Ltd signed a contract worth 12 million dollars \(part 2\)/);
    assert.equal(result.truncated, false);
  });

  it('reads no more than maxPages pages, and says so', async () => {
    const result = await extract(fixture('pages.pdf'), { maxPages: 2 });
    assert.deepEqual(labels(result), ['page 1', 'page 2']);
    assert.equal(result.pages, 3);
    assert.equal(result.truncated, true);
    assert.doesNotMatch(result.text, /part 3/);
    assert.deepEqual(result.warnings, ["Only the first 2 of the PDF's 3 pages were read"]);
  });

  it('names encrypted, truncated and self-referencing PDFs, without hanging', async () => {
    await rejectsWith(extract(fixture('encrypted.pdf')), 'encrypted', /^The PDF is encrypted with a password$/);
    await rejectsWith(extract(fixture('truncated.pdf')), 'corrupt', /^Not a readable PDF file: /);
    // A cycle in the page tree is named, not followed: the rejection itself shows it ends.
    await rejectsWith(extract(fixture('loop.pdf')), 'corrupt', /circular reference/);
  });

  it('reads a DOCX made by LibreOffice', async () => {
    const result = await extract(fixture('report.docx'));
    assert.equal(result.method, 'docx');
    assert.match(result.text, /^Quarterly Report\n/);
    assert.match(result.text, /Acme Holdings GmbH raised 5 million euros in its Series B round in March 2024\./);
  });

  it('gives the DOCX parser only the entries it counted, never a part the central directory hides in another', async () => {
    const result = await extract(docxWithHiddenDocument());
    assert.match(result.text, /^Quarterly Report\n/);
    assert.doesNotMatch(result.text, /Hidden Report/);
  });

  it('reads an XLSX as rows labelled with sheet and row', async () => {
    const result = await extract(fixture('ledger.xlsx'));
    assert.equal(result.method, 'xlsx');
    assert.equal(segmentText(result, 'ledger row 1'), 'Company | Amount | Currency | Date');
    assert.equal(segmentText(result, 'ledger row 4'), 'Smith, Jones & Co | 750000 | GBP | 2023-11-30');
  });

  it('reads a CSV likewise (quoted commas stay in their cell), and a semicolon CSV', async () => {
    const result = await extract(fixture('ledger.csv'));
    assert.equal(result.method, 'csv');
    assert.equal(segmentText(result, 'row 3'), 'Northwind Traders Ltd | 12000000 | USD | 2024-05-01');
    assert.equal(segmentText(result, 'row 4'), 'Smith, Jones & Co | 750000 | GBP | 2023-11-30');
    const semicolons = await extract('Name;City\nJane Doe;Berlin\nTom Becker;Hamburg\n');
    assert.equal(segmentText(semicolons, 'row 2'), 'Jane Doe | Berlin');
  });

  it('reads the article of an HTML page, not its menus, footer or scripts', async () => {
    const result = await extract(fixture('article.html'));
    assert.equal(result.method, 'html');
    assert.match(result.text, /Northwind Traders Ltd will open a logistics hub in Lisbon/);
    assert.match(result.text, /“It signals confidence in the Iberian market,” said Laura Brandt/);
    for (const chrome of ['Subscribe today', 'Most read', 'Cookie settings', 'tracking code', 'inline script', 'font-family']) {
      assert.ok(!result.text.includes(chrome), `"${chrome}" should not be in the text`);
    }
    assert.deepEqual(labels(result), ['title', 'article']);
  });

  it('falls back to the visible text (without navigation) when there is no article', async () => {
    const result = await extract('<html><body><nav><a href="/">Home</a> <a href="/x">Pricing</a></nav><div>Short note: call Jane.</div><script>var hidden = 1;</script></body></html>');
    assert.equal(result.method, 'html-visible');
    assert.equal(result.text, 'Short note: call Jane.');
  });

  it('reads an e-mail: headers, body and each attachment as its own text', async () => {
    const result = await extract(fixture('message.eml'));
    assert.equal(result.method, 'email');
    const headers = segmentText(result, 'e-mail headers');
    assert.match(headers, /^From: Jane Doe <jane\.doe@acme\.example>$/m);
    assert.match(headers, /^To: Research Desk <research@intel\.example>$/m);
    assert.match(headers, /^Cc: Tom Becker <tom\.becker@acme\.example>$/m);
    assert.match(headers, /^Subject: Acme Holdings: Series B figures attached$/m);
    assert.match(headers, /^Date: 2024-03-12T08:30:00/m);
    assert.match(segmentText(result, 'e-mail body'), /The round closed at 5 million euros\./);
    assert.match(segmentText(result, 'attachment report.pdf'), /Jane Doe, chief executive of Acme Holdings/);
    assert.match(segmentText(result, 'attachment report.pdf: page 1'), /^Quarterly Report/);
    assert.equal(segmentText(result, 'attachment ledger.csv: row 2'), 'Acme Holdings GmbH | 5000000 | EUR | 2024-03-15');
  });

  it('reads each entry of a zip, nested zips too', async () => {
    const result = await extract(fixture('bundle.zip'));
    assert.equal(result.method, 'zip');
    assert.deepEqual(labels(result), [
      'zip entry notes.txt',
      'zip entry docs/report.pdf',
      'zip entry docs/report.pdf: page 1',
      'zip entry inner.zip',
      'zip entry inner.zip: zip entry inner-notes.md',
    ]);
    assert.match(segmentText(result, 'zip entry inner.zip: zip entry inner-notes.md'), /Northwind Traders Ltd opened an office in Lisbon/);
  });
});

describe('extractText: text formats', () => {
  it('reads a table or JSON that does not parse as plain text, with a warning', async () => {
    const table = await extract('Name,City\nJane Doe,Berlin\n"Tom Becker,Hamburg\nAnna,Rome\n');
    assert.equal(table.text, 'Name,City\nJane Doe,Berlin\n"Tom Becker,Hamburg\nAnna,Rome');
    assert.deepEqual(table.segments, []);
    assert.match(table.warnings[0]!, /^The file could not be read as a table \(Quote Not Closed/);
    const attached = await extract(zipSync({ 'broken.csv': strToU8('Name,City\nJane Doe,Berlin\n"Tom Becker,Hamburg\n') }));
    assert.deepEqual(labels(attached), ['zip entry broken.csv']);
    assert.equal(segmentText(attached, 'zip entry broken.csv'), 'Name,City\nJane Doe,Berlin\n"Tom Becker,Hamburg');
    const json = await extract(`{"note": "${'x'.repeat(70_000)}", cut off here`);
    assert.equal(json.method, 'json');
    assert.ok(json.text.endsWith('cut off here'));
    assert.match(json.warnings[0]!, /^The file looks like JSON but does not parse/);
  });

  it('reads JSON values (strings, numbers, booleans) with their key paths', async () => {
    const result = await extract(JSON.stringify({ company: { name: 'Acme Holdings GmbH', officers: [{ name: 'Jane Doe', role: 'CEO' }] }, revenue: 5000000 }));
    assert.equal(result.method, 'json');
    assert.equal(result.text, 'company.name: Acme Holdings GmbH\ncompany.officers[0].name: Jane Doe\ncompany.officers[0].role: CEO\nrevenue: 5000000');
    assert.deepEqual(labels(result), ['key company.name', 'key company.officers[0].name', 'key company.officers[0].role', 'key revenue']);
  });

  it('decodes UTF-8 and UTF-16 with byte-order marks, and Latin-1 with a warning', async () => {
    const utf16le = new Uint8Array([0xff, 0xfe, ...Buffer.from('Zoë Müller met Acme.', 'utf16le')]);
    assert.equal((await extract(utf16le)).text, 'Zoë Müller met Acme.');
    const utf16be = Buffer.from('Zoë Müller', 'utf16le').swap16();
    assert.equal((await extract(new Uint8Array([0xfe, 0xff, ...utf16be]))).text, 'Zoë Müller');
    assert.equal((await extract(new Uint8Array([0xef, 0xbb, 0xbf, ...strToU8('# Zoë')]))).method, 'markdown');
    const latin1 = await extract(new Uint8Array(Buffer.from('Caf\u00e9 M\u00fcller \u00a3 5', 'latin1')));
    assert.equal(latin1.text, 'Café Müller £ 5');
    assert.deepEqual(latin1.warnings, ['The text is not UTF-8; it was read as Windows-1252 (Latin-1)']);
  });

  it('normalizes: no NUL bytes, \\n line ends, NFC, at most two blank lines in a row', async () => {
    const result = await extract(new Uint8Array([...strToU8('Acme\0 Holdings\r\nline two\r\n\r\n\r\n\r\n\r\n\r\nCafe\u0301')]));
    assert.equal(result.method, 'text');
    assert.equal(result.text, 'Acme Holdings\nline two\n\n\nCafé');
    assert.equal(result.text.normalize('NFC'), result.text);
  });

  it('reads a huge single line whole', async () => {
    const spaces = ' '.repeat(3_000_000);
    const result = await extract(`start${spaces}middle${'word '.repeat(400_000)}end`, { maxChars: 10_000_000 });
    assert.ok(result.text.startsWith('start') && result.text.endsWith('end'));
  });

  it('cuts text over maxChars at a code-point boundary, with a warning', async () => {
    const result = await extract(`${'a'.repeat(9)}😀 and more`, { maxChars: 10 });
    assert.equal(result.text, 'a'.repeat(9));
    assert.equal(result.truncated, true);
    assert.deepEqual(result.warnings, ['The text was cut at 10 characters']);
    const pdf = await extract(fixture('pages.pdf'), { maxChars: 150 });
    assert.equal(pdf.text.length, 150);
    assert.deepEqual(labels(pdf), ['page 1', 'page 2']);
    assert.equal(pdf.segments.at(-1)!.end, 150);
  });
});

describe('extractText: OCR', () => {
  it('reads the text of a PNG image and of a fax-style TIFF', async () => {
    for (const name of ['scan.png', 'scan-g4.tiff']) {
      const result = await extract(fixture(name));
      assert.equal(result.method, 'image-ocr');
      assert.deepEqual(labels(result), ['image text']);
      assert.match(result.text, /Acme Holdings GmbH raised\s+5 million euros in 2024/, name);
    }
  });

  it('reads a scanned PDF (an image, no text layer) through OCR, and refuses it with OCR off', async () => {
    const result = await extract(fixture('scanned.pdf'));
    assert.equal(result.method, 'pdf-ocr');
    assert.deepEqual(labels(result), ['page 1']);
    assert.match(result.text, /Acme Holdings GmbH raised\s+5 million euros in 2024/);
    await rejectsWith(extract(fixture('scanned.pdf'), { ocr: false }), 'unsupported', /^The PDF has no text layer and OCR is turned off$/);
    await rejectsWith(extract(fixture('scan.png'), { ocr: false }), 'unsupported', /OCR, which is turned off/);
  });

  it('refuses an image whose header declares too many pixels, before decoding it', async () => {
    const png = Buffer.from(fixture('scan.png'));
    png.writeUInt32BE(100_000, 16);
    png.writeUInt32BE(100_000, 20);
    await rejectsWith(extract(new Uint8Array(png)), 'too_large', /100000 × 100000 pixels/);
  });

  it('refuses a TIFF declaring too many pixels, and an image whose size cannot be read', async () => {
    // The fax TIFF's first directory, its ImageWidth (256) and ImageLength (257) set to 100,000.
    const tiff = Buffer.from(fixture('scan-g4.tiff'));
    const little = tiff.toString('latin1', 0, 2) === 'II';
    const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
    const directory = little ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
    for (let entry = 0; entry < u16(directory); entry++) {
      const at = directory + 2 + entry * 12;
      if (u16(at) !== 256 && u16(at) !== 257) continue;
      if (little) {
        tiff.writeUInt16LE(4, at + 2);
        tiff.writeUInt32LE(100_000, at + 8);
      } else {
        tiff.writeUInt16BE(4, at + 2);
        tiff.writeUInt32BE(100_000, at + 8);
      }
    }
    await rejectsWith(extract(new Uint8Array(tiff)), 'too_large', /100000 × 100000 pixels/);

    const headless = Buffer.from(fixture('scan-g4.tiff'));
    headless.writeUInt32LE(headless.length + 10, 4);
    headless.writeUInt32BE(headless.length + 10, 4);
    await rejectsWith(extract(new Uint8Array(headless)), 'corrupt', /size cannot be read/);
  });
});

describe('extractText: limits and hostile input', () => {
  it('fails a zip bomb with too_large from its declared size, before inflating anything', async () => {
    // The message names the declared size: refused from the header, not found by inflating.
    await rejectsWith(extract(zeroBomb(8 << 20, 4_000_000_000)), 'too_large', /zip bomb/);
  });

  it('fails a zip bomb that lies about its size while inflating, at the limit', async () => {
    const bomb = zeroBomb(64 << 20, 1000);
    assert.ok(bomb.length < 200_000, `bomb is ${bomb.length} bytes`);
    const before = process.memoryUsage().arrayBuffers;
    await rejectsWith(extract(bomb, { maxExpandedBytes: 4 << 20 }), 'too_large', /more than 4 MB/);
    assert.ok(process.memoryUsage().arrayBuffers - before < 48 << 20, 'the expanded size was never allocated');
    // Within the limit, the same archive reads (its text is all NUL bytes, hence empty).
    const small = await extract(zeroBomb(2 << 20, 2 << 20));
    assert.equal(small.text, '');
  });

  it('reads archives nested up to maxDepth, and warns about deeper ones', async () => {
    let archive = zipSync({ 'deepest.txt': strToU8('Text at the bottom') });
    for (const level of [3, 2, 1]) archive = zipSync({ [`level${level}.zip`]: archive });
    const within = await extract(archive, { maxDepth: 4 });
    assert.match(within.text, /Text at the bottom/);
    const beyond = await extract(archive, { maxDepth: 2 });
    assert.equal(beyond.text, '');
    assert.deepEqual(beyond.warnings, ['zip entry level3.zip was not read: it is nested more than 2 levels deep', 'No text was found in the file']);
  });

  it('reads at most maxZipEntries entries', async () => {
    const files = Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`note${index}.txt`, strToU8(`Note number ${index}`)]));
    const result = await extract(zipSync(files), { maxZipEntries: 3 });
    assert.match(result.text, /Note number 2/);
    assert.doesNotMatch(result.text, /Note number 3/);
    assert.equal(result.truncated, true);
    assert.deepEqual(result.warnings, ["Only the first 3 of the archive's 5 entries were read"]);
  });

  it('parses no entry past the caps: a zip stops at maxZipEntries, an Office file with too many parts is refused', async () => {
    const many = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`e${index}`, new Uint8Array(0)]));
    const zip = await extract(zipSync({ 'first.txt': strToU8('First entry'), ...many(20_000) }, { level: 0 }), { maxZipEntries: 10 });
    assert.match(zip.text, /First entry/);
    assert.equal(zip.warnings.at(-1), "Only the first 10 of the archive's 20001 entries were read");
    const docx = { ...unzipSync(fixture('report.docx')), ...many(MAX_OFFICE_PARTS) };
    await rejectsWith(extract(zipSync(docx, { level: 0 })), 'too_large', /has more than 10000 parts/);
  });

  it('names an encrypted zip, and reports unreadable entries without failing the rest', async () => {
    const archive = Buffer.from(zipSync({ 'secret.txt': strToU8('hidden') }, { level: 0 }));
    archive.writeUInt16LE(archive.readUInt16LE(6) | 1, 6);
    const central = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    archive.writeUInt16LE(archive.readUInt16LE(central + 8) | 1, central + 8);
    await rejectsWith(extract(new Uint8Array(archive)), 'encrypted', /^The zip archive is encrypted with a password$/);

    const mixed = await extract(zipSync({ 'good.txt': strToU8('Readable entry'), 'program': ELF }));
    assert.equal(mixed.text, 'Readable entry');
    assert.equal(mixed.warnings.length, 1);
    assert.match(mixed.warnings[0]!, /^zip entry program could not be read: Text cannot be read from this type of file \(application\/x-elf/);
  });

  it('names a broken DOCX, an unknown binary type and an empty file', async () => {
    const brokenDocx = zipSync({
      '[Content_Types].xml': strToU8(
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      'word/document.xml': strToU8('<w:document'),
    });
    await rejectsWith(extract(brokenDocx), 'corrupt', /^Not a readable DOCX file: /);
    await rejectsWith(extract(ELF), 'unsupported', /^Text cannot be read from this type of file \(application\/x-elf, told from its contents\)$/);
    await rejectsWith(extract(new Uint8Array()), 'unsupported', /^The file is empty$/);
  });

  it('stops when the signal fires: before starting, and between PDF pages', async () => {
    await rejectsWith(extract('some text', undefined, AbortSignal.abort()), 'aborted', /^Reading the file was stopped$/);
    const controller = new AbortController();
    const reading = extractText(
      { bytes: fixture('pages.pdf'), mime: 'application/pdf' },
      { signal: controller.signal, onProgress: (percent) => percent > 0 && controller.abort() },
    );
    await rejectsWith(reading, 'aborted', /was stopped/);
    const timeout = AbortSignal.timeout(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await rejectsWith(extract('text', undefined, timeout), 'aborted', /took too long/);
  });

  it('keeps what was read when the deadline fires (a soft limit), and still throws on the signal', async () => {
    const deadline = new AbortController();
    const partial = await extractText(
      { bytes: fixture('pages.pdf'), mime: 'application/pdf' },
      { signal: AbortSignal.timeout(120_000), deadline: deadline.signal, onProgress: (percent) => percent > 0 && deadline.abort() },
    );
    assert.equal(partial.method, 'partial: stopped at the time limit');
    assert.equal(partial.truncated, true);
    assert.deepEqual(labels(partial), ['page 1']);
    assert.match(partial.warnings.join('\n'), /stopped at the time limit/);
    const both = new AbortController();
    await rejectsWith(
      extractText(
        { bytes: fixture('pages.pdf'), mime: 'application/pdf' },
        { signal: both.signal, deadline: both.signal, onProgress: (percent) => percent > 0 && both.abort() },
      ),
      'aborted',
      /was stopped/,
    );
  });

  it('reports progress as it goes (99 at most), then 100 when done', async () => {
    const seen: number[] = [];
    await extractText({ bytes: fixture('pages.pdf'), mime: 'application/pdf' }, { onProgress: (percent) => seen.push(percent) });
    assert.deepEqual(seen, [33, 66, 99, 100]);
  });
});
