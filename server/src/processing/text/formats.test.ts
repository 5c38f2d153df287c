/**
 * The formats of issue 26 on real files made with real tools (fixtures/README.md says how):
 * presentations, Word 97, Excel 97, OpenDocument, RTF, EPUB, Outlook messages, multi-page
 * TIFF, BMP, HEIC; encodings, JSON lines, HTML tables; and their hostile variants.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import CFB from 'cfb';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { closeOcrWorker, extractText, type TextLimits } from './index.ts';
import { labels, rejectsWith, segmentText } from '../../test/extracted-text.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
/** A file of the public corpus beside the repository (../shared/real-docs), when it is there. */
const REAL_DOCS = new URL('../../../../../shared/real-docs/unstructured-example-docs/', import.meta.url);
const realDoc = (name: string) => (existsSync(new URL(name, REAL_DOCS)) ? new Uint8Array(readFileSync(new URL(name, REAL_DOCS))) : null);

const extract = (bytes: Uint8Array | string, limits?: Partial<TextLimits>, mime = 'application/octet-stream') =>
  extractText({ bytes: typeof bytes === 'string' ? strToU8(bytes) : bytes, mime }, { limits, signal: AbortSignal.timeout(120_000) });


const MEMO_LINES = [
  'Board memo',
  'Acme Holdings GmbH appointed Jane Doe as chief financial officer in Zürich.',
  'The board approved a budget of 5 million euros for 2025.',
  'Quarter | Revenue | Region',
  'Q1 2025 | EUR 1.2 million | Europe',
  'Signed by Peter Brown.',
];
const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

after(closeOcrWorker);

describe('extractText: documents of issue 26', () => {
  it('reads a PPTX slide by slide in the presentation order, with speaker notes', async () => {
    const result = await extract(fixture('slides.pptx'));
    assert.equal(result.method, 'pptx');
    assert.deepEqual(labels(result), ['slide 1', 'slide 1 notes', 'slide 2']);
    assert.equal(segmentText(result, 'slide 1'), 'Quarterly results\nAcme Holdings GmbH grew revenue to 5 million euros.\nJane Doe presented the plan.');
    assert.equal(segmentText(result, 'slide 1 notes'), 'Speaker note: mention the Zürich office.');
    assert.equal(segmentText(result, 'slide 2'), 'Next steps\nPeter Brown will open the Lisbon office in 2026.');
    assert.deepEqual(result.warnings, []);
  });

  it("reads the text in a slide's pictures with OCR, says nothing of pictures without text, and reads at most 20", async (t) => {
    const logo = realDoc('picture.pptx');
    if (logo) {
      const result = await extract(logo);
      assert.match(segmentText(result, 'slide 1 picture image1.png: image text'), /python\s+powered/);
      assert.deepEqual(result.warnings, []);
      assert.deepEqual((await extract(realDoc('test-image-jpg-mime.pptx')!)).warnings, ['No text was found in the file']);
    } else t.diagnostic('../shared/real-docs is not beside the repository: the corpus decks were not read');
    // slides.pptx with 22 pictures related to its first slide (our own scan, as 22 parts).
    const parts = unzipSync(fixture('slides.pptx'));
    const rels = 'ppt/slides/_rels/slide1.xml.rels';
    const pictures = Array.from({ length: 22 }, (_, index) => `<Relationship Id="rPic${index}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/scan${index}.png"/>`).join('');
    parts[rels] = strToU8(new TextDecoder().decode(parts[rels]).replace('</Relationships>', `${pictures}</Relationships>`));
    for (let index = 0; index < 22; index += 1) parts[`ppt/media/scan${index}.png`] = fixture('scan.png');
    const deck = await extract(zipSync(parts));
    assert.equal(labels(deck).filter((label) => label.endsWith(': image text')).length, 20);
    assert.match(segmentText(deck, 'slide 1 picture scan0.png: image text'), /Acme Holdings GmbH raised/);
    assert.deepEqual(deck.warnings, ['Only the first 20 pictures were read with OCR; 2 more were not']);
  });

  it('reads a PowerPoint 97 file (.ppt) slide by slide, and its notes', async () => {
    const result = await extract(fixture('slides.ppt'));
    assert.equal(result.method, 'ppt');
    assert.equal(segmentText(result, 'slide 1'), 'Quarterly results\nAcme Holdings GmbH grew revenue to 5 million euros.\nJane Doe presented the plan.');
    assert.equal(segmentText(result, 'slide 2'), 'Next steps\nPeter Brown will open the Lisbon office in 2026.');
    assert.equal(segmentText(result, 'notes'), 'Speaker note: mention the Zürich office.');
    assert.doesNotMatch(result.text, /Click to edit/);
  });

  it('reads an OpenDocument presentation page by page', async () => {
    const result = await extract(fixture('slides.odp'));
    assert.equal(result.method, 'odp');
    assert.deepEqual(labels(result), ['slide 1', 'slide 2']);
    assert.match(segmentText(result, 'slide 1'), /^Quarterly results\nAcme Holdings GmbH grew revenue to 5 million euros\.\nJane Doe presented the plan\.\nSpeaker note/);
    assert.equal(segmentText(result, 'slide 2'), 'Next steps\nPeter Brown will open the Lisbon office in 2026.');
  });

  for (const [file, method] of [['memo.odt', 'odt'], ['memo.doc', 'doc'], ['memo.rtf', 'rtf'], ['memo.epub', 'epub']] as const) {
    it(`reads ${file} with its table as rows ("cell | cell")`, async () => {
      const result = await extract(fixture(file));
      assert.equal(result.method, method);
      assert.deepEqual(lines(result.text), MEMO_LINES);
      assert.deepEqual(result.warnings, []);
    });
  }

  it('labels the parts of a Word 97 file and the chapters of an e-book', async () => {
    assert.deepEqual(labels(await extract(fixture('memo.doc'))), ['body']);
    assert.deepEqual(labels(await extract(fixture('memo.epub'))), ['chapter 1']);
  });

  for (const file of ['ledger.xls', 'ledger.ods']) {
    it(`reads ${file} as rows labelled with sheet and row, like XLSX`, async () => {
      const result = await extract(fixture(file));
      assert.equal(result.method, file.slice(-3));
      assert.equal(segmentText(result, 'ledger row 1'), 'Company | Amount | Currency | Date');
      assert.equal(segmentText(result, 'ledger row 2'), 'Acme Holdings GmbH | 5000000 | EUR | 2024-03-15');
      assert.equal(segmentText(result, 'ledger row 4'), 'Smith, Jones & Co | 750000 | GBP | 2023-11-30');
    });
  }

  it('reads an Outlook message: headers, body and its attachment (from the public corpus)', async (t) => {
    const bytes = realDoc('fake-email-attachment.msg');
    if (!bytes) return t.skip('../shared/real-docs is not beside the repository');
    const result = await extract(bytes);
    assert.equal(result.method, 'msg');
    assert.deepEqual(labels(result), ['e-mail headers', 'e-mail body', 'attachment fake-attachment.txt']);
    assert.match(segmentText(result, 'e-mail headers'), /^From: Mallori Harrell <mallori@unstructured\.io>\nTo: .*\nDate: 2023-04-20T21:39:10\.000Z\nSubject: Fake email with attachment$/);
    assert.match(segmentText(result, 'e-mail body'), /Here's the attachments!/);
    assert.equal(segmentText(result, 'attachment fake-attachment.txt'), 'Hey this is a fake attachment!');
    const cc = await extract(realDoc('fake-email-with-cc-and-bcc.msg')!);
    assert.match(segmentText(cc, 'e-mail headers'), /\nCc: .+\n/);
  });

  it("reads a DOCX's headers and footers (mammoth reads the body only), each distinct one once", async () => {
    const parts = unzipSync(fixture('report.docx'));
    const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const paragraph = (text: string) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`;
    parts['word/header1.xml'] = strToU8(`<w:hdr ${w}>${paragraph('Northwind Traders Ltd — Confidential')}<w:tbl><w:tr><w:tc>${paragraph('Ref. NT-2025-114')}</w:tc><w:tc>${paragraph('Draft')}</w:tc></w:tr></w:tbl></w:hdr>`);
    parts['word/header2.xml'] = parts['word/header1.xml'];
    parts['word/footer1.xml'] = strToU8(`<w:ftr ${w}>${paragraph('Registered in Rotterdam &amp; Lisbon')}</w:ftr>`);
    const result = await extract(zipSync(parts));
    assert.equal(result.method, 'docx');
    assert.equal(segmentText(result, 'header'), 'Northwind Traders Ltd — Confidential\nRef. NT-2025-114 | Draft');
    assert.equal(segmentText(result, 'footer'), 'Registered in Rotterdam & Lisbon');
    assert.equal(labels(result).filter((label) => label === 'header').length, 1, 'the same header twice is read once');
  });

  it('reads a DOCX, PPTX or e-book whose parts lie beyond the first 64 KiB (told from the zip directory)', async () => {
    const parts = unzipSync(fixture('report.docx'));
    const padding = new Uint8Array(100_000).map((_, index) => (index * 7919) % 251);
    const padded = zipSync({ 'media/padding.bin': [padding, { level: 0 }], ...parts });
    const result = await extract(padded);
    assert.equal(result.method, 'docx');
    assert.match(result.text, /Quarterly Report/);
  });
});

describe('extractText: images of issue 26', () => {
  it('reads every page of a multi-page TIFF, labelled "page N", and says when maxPages cut it', async () => {
    const result = await extract(fixture('pages.tiff'));
    assert.deepEqual(labels(result), ['page 1', 'page 2']);
    assert.match(segmentText(result, 'page 1'), /Acme Holdings GmbH/);
    assert.match(segmentText(result, 'page 2'), /Jane Doe signed the\s+contract in Lisbon/);
    const cut = await extract(fixture('pages.tiff'), { maxPages: 1 });
    assert.equal(cut.truncated, true);
    assert.deepEqual(cut.warnings, ["Only the first 1 of the TIFF image's 2 pages were read"]);
    assert.doesNotMatch(cut.text, /Lisbon/);
  });

  it('reads a BMP and a HEIC photo (libheif in WebAssembly, nothing downloaded)', async () => {
    for (const file of ['scan.bmp', 'scan.heic']) {
      const result = await extract(fixture(file));
      assert.equal(result.method, 'image-ocr', file);
      assert.match(result.text, /Acme Holdings GmbH/, file);
    }
  });

  it('refuses a truncated HEIC and a TIFF page it cannot decode, with the reason', async () => {
    const heic = fixture('scan.heic');
    await rejectsWith(extract(heic.subarray(0, heic.length / 2)), 'corrupt', /HEIC/);
    const tiff = Buffer.from(fixture('pages.tiff'));
    await rejectsWith(extract(new Uint8Array(tiff.subarray(0, 600))), 'corrupt', /TIFF/);
  });
});

describe('extractText: OCR of real scans (issue 26 item 2)', () => {
  it('reads small print again enlarged when its lines are too small for Tesseract, and records the confidence', async () => {
    // 7-point text at 72 dpi: read as it is, Tesseract finds noise ("emi riers 4d eo ons…", 48%).
    const result = await extract(fixture('small-print.png'));
    assert.match(result.text, /Northwind Traders Ltd agreed to buy Harbour Logistics SA/);
    assert.match(result.text, /Rotterdam/);
    assert.equal(result.ocr?.length, 1);
    assert.equal(result.ocr![0]!.label, 'image text');
    assert.ok(result.ocr![0]!.confidence >= 70, `confidence ${result.ocr![0]!.confidence}`);
  });

  it('deskews a page scanned at an angle', async () => {
    const result = await extract(fixture('skewed.png'));
    assert.match(result.text, /Acme Holdings GmbH raised\s+5 million euros in 2024/);
  });

  it('records the confidence per page, and keeps out what it cannot read with confidence', async () => {
    const pages = await extract(fixture('pages.tiff'));
    assert.deepEqual(pages.ocr?.map((page) => page.label), ['page 1', 'page 2']);
    assert.ok(pages.ocr!.every((page) => page.confidence >= 80), JSON.stringify(pages.ocr));
    // A drawing without letters: no "text" made of its strokes, and said so.
    const drawing = await extract(fixture('shapes.png'));
    assert.equal(drawing.text, '');
    assert.ok(drawing.warnings.includes('No text was found in the image'), JSON.stringify(drawing.warnings));
  });

  it('keeps the rows of a scanned table in reading order (the public corpus\'s table image)', async (t) => {
    const bytes = realDoc('img/table-multi-row-column-cells.png');
    if (!bytes) return t.skip('../shared/real-docs is not beside the repository');
    const result = await extract(bytes);
    for (const row of ['Blind 5 1 4 34.5%, n=1 1199 sec, n=1', 'Dexterity 5 4 1 98.3%, n=4 1672.1 sec, n=4', 'Mobility 3 3 0 95.4%, n=3 1416 sec, n=3']) {
      assert.ok(result.text.split('\n').some((line) => line.replace(/\s*\|\s*/g, ' ').includes(row)), `no line "${row}" in:\n${result.text}`);
    }
  });
});

describe('extractText: PDFs the benchmark found incomplete (issue 26)', () => {
  /** A one-page PDF in Helvetica whose lines are [text, drawn twice?]: each glyph placed by its own Tm, a copy 0.3 pt right. */
  const pdfOfLines = (rows: Array<[string, boolean]>) => {
    // Helvetica's advance widths (per 1,000 of the size), so pdf.js infers no space between glyphs.
    const widths: Record<string, number> = { ' ': 278, i: 222, l: 222, t: 278, f: 278, r: 333, s: 500, c: 500, k: 500, M: 833, O: 778, D: 722, T: 611, L: 556 };
    const width = (char: string) => ((widths[char] ?? (/[A-Z]/.test(char) ? 667 : 556)) * 12) / 1000;
    const ops: string[] = ['BT', '/F1 12 Tf'];
    rows.forEach(([line, twice], index) => {
      const y = 700 - index * 30;
      let x = 72;
      for (const char of line) {
        if (char !== ' ') {
          ops.push(`1 0 0 1 ${x.toFixed(2)} ${y} Tm (${char}) Tj`);
          if (twice) ops.push(`1 0 0 1 ${(x + 0.3).toFixed(2)} ${y + 0.2} Tm (${char}) Tj`);
        }
        x += width(char);
      }
    });
    ops.push('ET');
    const stream = ops.join('\n');
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    ];
    let pdf = '%PDF-1.4\n';
    const offsets = objects.map((body, index) => {
      const at = pdf.length;
      pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
      return at;
    });
    const xref = pdf.length;
    pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('')}`;
    pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    return strToU8(pdf);
  };

  it('reads "fake bold" (each glyph painted twice, a fraction of a point apart) once, and leaves real double letters alone', async () => {
    const result = await extract(pdfOfLines([['BOLD TEXT SAMPLE', true], ['Testing Deduplication', true], ['Bookkeeping all week', false], ['All Hallowed Hills', true]]));
    const read = lines(result.text).map((line) => line.trim());
    assert.deepEqual(read, ['BOLD TEXT SAMPLE', 'Testing Deduplication', 'Bookkeeping all week', 'All Hallowed Hills'], result.text);
    assert.deepEqual(result.warnings, []);
    // The corpus's own sample, when it is beside the repository.
    const sample = realDoc('pdf/fake-bold-sample.pdf');
    if (sample) assert.match((await extract(sample)).text, /BOLD TEXT SAMPLE\nTesting Deduplication\n/);
  });

  it('reads a 72-dpi scanned page at its own resolution, like the image it holds: every row of the table', async (t) => {
    const bytes = realDoc('pdf/table-multi-row-column-cells.pdf');
    if (!bytes) return t.skip('../shared/real-docs is not beside the repository');
    const result = await extract(bytes);
    assert.equal(result.method, 'pdf-ocr');
    for (const row of ['Blind 5 1 4 34.5%, n=1 1199 sec, n=1', 'Dexterity 5 4 1 98.3%, n=4 1672.1 sec, n=4', 'Mobility 3 3 0 95.4%, n=3 1416 sec, n=3']) {
      assert.ok(result.text.split('\n').some((line) => line.replace(/\s*\|\s*/g, ' ').includes(row)), `no line "${row}" in:\n${result.text}`);
    }
  });
});

describe('extractText: encodings, JSON lines, HTML tables', () => {
  const sentence = 'Zoë Müller met Acme Holdings in Zürich.';
  const utf32 = (text: string, littleEndian: boolean, bom: boolean) => {
    const points = [...(bom ? [0xfeff] : []), ...[...text].map((char) => char.codePointAt(0)!)];
    const bytes = Buffer.alloc(points.length * 4);
    points.forEach((point, index) => (littleEndian ? bytes.writeUInt32LE(point, index * 4) : bytes.writeUInt32BE(point, index * 4)));
    return new Uint8Array(bytes);
  };

  it('decodes UTF-32 by byte-order mark, and UTF-16 and UTF-32 without one (with a warning)', async () => {
    for (const littleEndian of [true, false]) {
      assert.equal((await extract(utf32(sentence, littleEndian, true))).text, sentence);
      const unmarked = await extract(utf32(sentence, littleEndian, false));
      assert.equal(unmarked.text, sentence);
      assert.deepEqual(unmarked.warnings, [`The text has no byte-order mark; it was read as UTF-32${littleEndian ? 'LE' : 'BE'}`]);
      const utf16 = Buffer.from(sentence, 'utf16le');
      const unmarked16 = await extract(new Uint8Array(littleEndian ? utf16 : Buffer.from(utf16).swap16()));
      assert.equal(unmarked16.text, sentence);
      assert.deepEqual(unmarked16.warnings, [`The text has no byte-order mark; it was read as UTF-16${littleEndian ? 'LE' : 'BE'}`]);
    }
  });

  it('reads a UTF-16 e-mail and an e-mail saved with its mbox "From " line', async () => {
    const email = 'From: Jane Doe <jane@acme.example>\r\nTo: Peter Brown <peter@acme.example>\r\nSubject: Budget\r\nDate: Mon, 3 Mar 2025 10:00:00 +0000\r\n\r\nThe budget is 5 million euros.\r\n';
    const utf16 = await extract(new Uint8Array([0xff, 0xfe, ...Buffer.from(email, 'utf16le')]));
    assert.equal(utf16.method, 'email');
    assert.equal(segmentText(utf16, 'e-mail body'), 'The budget is 5 million euros.');
    const mbox = await extract(`From jane@acme.example Mon Mar  3 10:00:00 2025\n${email}`);
    assert.equal(mbox.method, 'email');
    assert.match(segmentText(mbox, 'e-mail headers'), /^From: Jane Doe <jane@acme\.example>/);
  });

  it('reads NDJSON as JSON lines, even when every line has the same commas (which looks like CSV)', async () => {
    const ndjson = '{"name": "Acme Holdings", "city": "Zürich"}\n{"name": "Northwind", "city": "Lisbon"}\nnot json\n';
    const result = await extract(ndjson);
    assert.equal(result.method, 'json-lines');
    assert.equal(result.text, 'name: Acme Holdings\ncity: Zürich\n\nname: Northwind\ncity: Lisbon\n\nnot json');
    // Numbers and booleans are read with the strings (an amount, a year); nulls are nothing.
    const record = await extract('{"company": {"name": "Acme", "revenue": 5000000, "listed": true, "parent": null}}');
    assert.equal(record.text, 'company.name: Acme\ncompany.revenue: 5000000\ncompany.listed: true');
    assert.deepEqual(labels(result), ['line 1: key name', 'line 1: key city', 'line 2: key name', 'line 2: key city', 'line 3']);
    assert.deepEqual(result.warnings, ["1 of the file's lines are not JSON; they were read as plain text"]);
  });

  it("keeps an HTML page's tables as rows, also those its article leaves out", async () => {
    const description = 'Grade SNB22-3 is a chromium molybdenum steel used for bolts of nuclear reactors and other special uses in industry.';
    const html = `<!DOCTYPE html><html><head><title>SNB22-3 datasheet</title></head><body><nav>Home | Steels</nav>
      <article><h1>SNB22-3 datasheet</h1><p>${description}</p><p>${description}</p></article>
      <div><table><tr><th>C</th><th>Si</th><th>Mn</th></tr><tr><td><p>0.39 - 0.46</p></td><td>0.2 -<br>0.35</td><td>0.65 - 1.1</td></tr></table></div></body></html>`;
    const result = await extract(html);
    assert.equal(result.method, 'html');
    assert.equal(segmentText(result, 'tables'), 'C | Si | Mn\n0.39 - 0.46 | 0.2 - 0.35 | 0.65 - 1.1');
  });

  it('reads XHTML with an XML declaration (inline XBRL filings) as a page', async () => {
    const result = await extract('<?xml version="1.0" encoding="utf-8"?>\n<!-- filing -->\n<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Acme Holdings filed its annual report for 2024 with the commission today.</p></body></html>');
    assert.match(result.method, /^html/);
    assert.equal(result.text, 'Acme Holdings filed its annual report for 2024 with the commission today.');
  });

  it('reads text with a stray control byte (an export with an STX), and still refuses a binary', async () => {
    const text = `Acme Holdings GmbH reported results.\u0002 ${'More prose follows here. '.repeat(200)}`;
    const result = await extract(text);
    assert.equal(result.method, 'text');
    assert.match(result.text, /^Acme Holdings GmbH reported results\. More prose/);
    const binary = new Uint8Array(4000).map((_, index) => (index % 7 === 0 ? 0x02 : 0x41));
    await rejectsWith(extract(binary), 'unsupported', /application\/octet-stream/);
  });

  it('reads an HTML fragment named .html as HTML, though it starts with a tag the sniffer does not list', async () => {
    const fragment = '<h3 class="title">Jahresabschluss 2020</h3><p>Die Acme Holdings GmbH meldet einen Gewinn.</p>';
    const named = await extractText({ bytes: strToU8(fragment), mime: 'text/plain', fileName: 'bericht.html' });
    assert.deepEqual(lines(named.text), ['Jahresabschluss 2020', 'Die Acme Holdings GmbH meldet einen Gewinn.']);
    assert.equal((await extract(fragment)).method, 'text', 'unnamed, it stays text');
  });

  it('never completes a file without text silently: it says no text was found', async () => {
    const blank = await extract('   \n\n  ');
    assert.equal(blank.text, '');
    assert.deepEqual(blank.warnings, ['No text was found in the file']);
  });
});

describe('extractText: hostile files of the new formats', () => {
  it('counts the parts of PPTX, OpenDocument and EPUB files against the expanded-size budget (zip bombs)', async () => {
    for (const file of ['slides.pptx', 'slides.odp', 'memo.odt', 'memo.epub', 'ledger.ods']) {
      await rejectsWith(extract(fixture(file), { maxExpandedBytes: 2000 }), 'too_large', /may be a zip bomb/);
    }
  });

  it('names encrypted OpenDocument files, DRM e-books and password-protected Word 97 files', async () => {
    const odt = unzipSync(fixture('memo.odt'));
    const manifest = new TextDecoder().decode(odt['META-INF/manifest.xml']).replace(/<manifest:file-entry manifest:full-path="content.xml"([^>]*)\/>/, '<manifest:file-entry manifest:full-path="content.xml"$1><manifest:encryption-data manifest:checksum-type="SHA1"/></manifest:file-entry>');
    assert.match(manifest, /encryption-data/);
    const encryptedOdt = zipSync({ mimetype: [odt['mimetype']!, { level: 0 }], ...odt, 'META-INF/manifest.xml': strToU8(manifest) });
    await rejectsWith(extract(encryptedOdt), 'encrypted', /OpenDocument text is encrypted/);

    const epub = unzipSync(fixture('memo.epub'));
    const chapter = Object.keys(epub).find((name) => name.includes('/sections/'))!;
    const encryption = `<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><EncryptedData xmlns="http://www.w3.org/2001/04/xmlenc#"><CipherData><CipherReference URI="${chapter}"/></CipherData></EncryptedData></encryption>`;
    const drm = zipSync({ mimetype: [epub['mimetype']!, { level: 0 }], ...epub, 'META-INF/encryption.xml': strToU8(encryption) });
    await rejectsWith(extract(drm), 'encrypted', /encrypted \(DRM\)/);

    // Word's File Information Block says fEncrypted (bit 8 of the flags at 0x0A).
    const doc = CFB.read(Buffer.from(fixture('memo.doc')), { type: 'buffer' });
    const word = CFB.find(doc, 'WordDocument')!;
    const content = Buffer.from(word.content as Uint8Array);
    content[0x0b]! |= 0x01;
    word.content = content;
    await rejectsWith(extract(new Uint8Array(CFB.write(doc, { type: 'buffer' }) as Buffer)), 'encrypted', /Word document is encrypted/);
  });

  it('refuses truncated files of every new format as corrupt, naming the format', async () => {
    const cases: Array<[string, RegExp]> = [
      ['slides.pptx', /PPTX|zip/i],
      ['slides.odp', /OpenDocument|zip/i],
      ['memo.odt', /OpenDocument|zip/i],
      ['memo.epub', /EPUB|zip/i],
      ['ledger.ods', /OpenDocument|zip/i],
      ['memo.doc', /Word|Office|Outlook/],
      ['ledger.xls', /Excel|Office|Outlook/],
      ['slides.ppt', /PowerPoint|Office|Outlook/],
    ];
    for (const [file, reason] of cases) {
      const bytes = fixture(file);
      await rejectsWith(extract(bytes.subarray(0, Math.floor(bytes.length / 2))), 'corrupt', reason);
    }
  });

  it('reads what comes before the damage of a truncated RTF, and survives groups nested 100,000 deep', async () => {
    const rtf = fixture('memo.rtf');
    const cut = await extract(rtf.subarray(0, Math.floor(rtf.length * 0.9)));
    assert.equal(cut.method, 'rtf');
    assert.match(cut.text, /Acme Holdings GmbH/);
    const deep = await extract(`{\\rtf1\\ansi ${'{'.repeat(100_000)}Deep text${'}'.repeat(100_000)}}`);
    assert.match(deep.text, /Deep text/);
  });

  it('survives a PowerPoint stream of records nested without end, or lying about their length', async () => {
    const nested = Buffer.alloc(8 * 50_000);
    for (let at = 0; at < nested.length; at += 8) {
      nested.writeUInt16LE(0x000f, at);
      nested.writeUInt16LE(0x03e8, at + 2);
      nested.writeUInt32LE(nested.length - at - 8, at + 4);
    }
    const lying = Buffer.alloc(16);
    lying.writeUInt16LE(0x0000, 0);
    lying.writeUInt16LE(0x0fa0, 2);
    lying.writeUInt32LE(0xffffffff, 4);
    lying.write('Hi', 8, 'utf16le');
    for (const stream of [nested, lying]) {
      const container = CFB.utils.cfb_new();
      CFB.utils.cfb_add(container, 'PowerPoint Document', stream);
      const result = await extract(new Uint8Array(CFB.write(container, { type: 'buffer' }) as Buffer));
      assert.equal(result.method, 'ppt');
      assert.deepEqual(result.warnings, ['No text was found in the file']);
    }
  });

  it('names an OLE file that is none of Word, Excel, PowerPoint or Outlook', async () => {
    const container = CFB.utils.cfb_new();
    CFB.utils.cfb_add(container, 'Something', Buffer.from('data'));
    await rejectsWith(extract(new Uint8Array(CFB.write(container, { type: 'buffer' }) as Buffer)), 'unsupported', /kind of OLE compound file/);
  });
});
