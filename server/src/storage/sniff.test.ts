import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { sniffType } from './sniff.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

const sniff = async (content: Buffer | string, complete = true) => (await sniffType(Buffer.from(content), complete)).mime;

describe('sniffType', () => {
  it('recognizes binary formats by their signatures, whatever they are called', async () => {
    assert.equal(await sniff(PNG), 'image/png');
    assert.equal(await sniff('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n'), 'application/pdf');
    assert.equal(await sniff(Buffer.from(zipSync({ 'notes.txt': strToU8('hello') }))), 'application/zip');
    const docx = zipSync({
      '[Content_Types].xml': strToU8(
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      'word/document.xml': strToU8('<w:document/>'),
    });
    assert.equal(await sniff(Buffer.from(docx)), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('tells Office 97–2003 files apart by the streams their OLE directory names', async () => {
    const fixture = (name: string) => readFileSync(new URL(`../processing/text/fixtures/${name}`, import.meta.url));
    assert.equal(await sniff(fixture('memo.doc')), 'application/msword');
    assert.equal(await sniff(fixture('ledger.xls')), 'application/vnd.ms-excel');
    assert.equal(await sniff(fixture('slides.ppt').subarray(0, 64 * 1024), false), 'application/x-cfb', 'a directory beyond the head: the reader decides');
  });

  it('calls anything that may be active content what it is', async () => {
    assert.equal(await sniff('<!DOCTYPE html><html><body>hi</body></html>'), 'text/html');
    assert.equal(await sniff('  \n<HTML>\n<script>alert(1)</script>'), 'text/html');
    assert.equal(await sniff('<p>one paragraph</p>'), 'text/html');
    assert.equal(await sniff('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'), 'image/svg+xml');
    assert.equal(await sniff('<?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn -->\n<svg width="1"></svg>'), 'image/svg+xml');
    assert.equal(await sniff('<?xml version="1.0"?><feed></feed>'), 'application/xml');
  });

  it('tells e-mail, JSON, CSV, TSV, Markdown and plain text apart', async () => {
    const mail = 'Received: from mx.example.com\r\nFrom: Ann <ann@example.com>\r\nTo: bob@example.com\r\nSubject: Q3\r\n  numbers\r\n\r\nHello Bob,\r\n';
    assert.equal(await sniff(mail), 'message/rfc822');
    assert.equal(await sniff('{"name": "Acme", "employees": [1, 2]}'), 'application/json');
    assert.equal(await sniff('[1, 2, 3]'), 'application/json');
    assert.equal(await sniff('{"cut": "off in the mid', false), 'application/json');
    assert.equal(await sniff('{not json at all'), 'text/plain');
    assert.equal(await sniff('name,city,founded\nAcme,"Paris, France",1999\nGlobex,Berlin,2004\n'), 'text/csv');
    assert.equal(await sniff('name;city\nAcme;Paris\nGlobex;Berlin\n'), 'text/csv');
    assert.equal(await sniff('name\tcity\nAcme\tParis\n'), 'text/tab-separated-values');
    assert.equal(await sniff('a,"multi\nline",c\nd,e,f\n'), 'text/csv');
    assert.equal(await sniff('# Notes\n\nSome *text*.\n'), 'text/markdown');
    assert.equal(await sniff('See [the report](https://example.com/r.pdf) for details.\n'), 'text/markdown');
    assert.equal(await sniff('Just a note, nothing more.\nSecond line\n'), 'text/plain');
    assert.equal(await sniff('Subject: not a mail\nbecause this line is no header\n'), 'text/plain');
    assert.equal(await sniff('caf\u00e9 cr\u00e8me'), 'text/plain');
  });

  it('reads UTF-16 and UTF-32 text as text, byte-order mark or not (not as MP3 frames)', async () => {
    const mail = 'From: Ann <ann@example.com>\nTo: bob@example.com\nSubject: Q3\n\nHello Bob,\n';
    const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();
    assert.equal(await sniff(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(mail, 'utf16le')])), 'message/rfc822');
    assert.equal(await sniff(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be('Just a note, nothing more.\n')])), 'text/plain');
    assert.equal(await sniff(Buffer.from('name,city\nAcme,Paris\nGlobex,Berlin\n', 'utf16le')), 'text/csv', 'no byte-order mark: the zero bytes tell');
    const utf32 = Buffer.alloc(4 + 4 * 12);
    utf32.set([0xff, 0xfe, 0, 0]);
    [...'Hello there.'].forEach((char, index) => utf32.writeUInt32LE(char.codePointAt(0)!, 4 + 4 * index));
    assert.equal(await sniff(utf32), 'text/plain');
    assert.equal(await sniff(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<!DOCTYPE html><html>hi</html>', 'utf16le')])), 'text/html');
    // An MPEG audio frame (FF FB …) is still audio.
    assert.equal(await sniff(Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(4000, 1)])), 'audio/mpeg');
  });

  it('calls an XHTML page (XML with an <html> root) a page, and a TIFF a TIFF wherever its directory lies', async () => {
    assert.equal(await sniff('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml"><body>10-K</body></html>'), 'application/xhtml+xml');
    assert.equal(await sniff('<?xml version="1.0"?><catalog><html-ish/></catalog>'), 'application/xml');
    const tiff = Buffer.alloc(70_000);
    tiff.set([0x49, 0x49, 0x2a, 0x00]);
    tiff.writeUInt32LE(69_000, 4);
    assert.equal(await sniff(tiff.subarray(0, 64 * 1024), false), 'image/tiff');
  });

  it('calls bytes that are neither a known format nor text a stream of bytes', async () => {
    assert.equal(await sniff(Buffer.from([0x00, 0x01, 0x02, 0x03, 0x41])), 'application/octet-stream');
    assert.equal(await sniff('text with a NUL\u0000 in it'), 'application/octet-stream');
    assert.equal(await sniff(''), 'application/octet-stream');
  });

  // Patterns that backtrack badly would hang here (the file's time limit catches it): a run of
  // comments that never reaches <svg> once took seconds per 30 comments, a line of "[" grew
  // with its square.
  it('classifies hostile text built to make its patterns backtrack, in one pass', async () => {
    assert.equal(await sniff('<!-- a -->'.repeat(6000) + 'x'), 'text/html');
    assert.equal(await sniff('<?xml version="1.0"?>' + '<!-- c -->\n'.repeat(5000) + '<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml');
    assert.equal(await sniff('['.repeat(64 * 1024)), 'text/plain');
    assert.equal(await sniff('[' + 'a'.repeat(200) + '](' + 'b'.repeat(60_000)), 'text/plain');
    assert.equal(await sniff('See [the report](https://example.org/report.pdf) for details.'), 'text/markdown');
  });
});

