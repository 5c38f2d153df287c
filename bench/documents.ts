/**
 * Generated documents for the processing benchmarks (processing.ts, api-under-processing.ts) and
 * their upload: news-like stories (organizations, people, money, dates, places; every n a
 * different one, the same in every run) as plain text, HTML, e-mail, CSV and — with no office
 * suite needed — small DOCX and PDF files written here and XLSX by the app's own writer
 * (server/src/test/xlsx.ts). processing.ts makes its DOCX and PDF with LibreOffice instead.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { strToU8, zipSync } from 'fflate';
import { xlsx } from '../server/src/test/xlsx.ts';
import { CITIES, FAMILY_NAMES, GIVEN_NAMES_F, GIVEN_NAMES_M, JOB_TITLES, LEGAL_SUFFIXES, ORG_CORES, ORG_PREFIXES } from './words.ts';

/** A small deterministic generator (mulberry32), so every run reads the same documents. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The n-th organization name (the same n, the same name: processing.ts creates 0 … records-1 as the tenant's). */
export const organization = (n: number) => `${ORG_PREFIXES[n % ORG_PREFIXES.length]} ${ORG_CORES[Math.floor(n / ORG_PREFIXES.length) % ORG_CORES.length]} ${LEGAL_SUFFIXES[n % LEGAL_SUFFIXES.length]}`;
/** The n-th person's name. */
export const person = (n: number) => {
  const given = n % 2 === 0 ? GIVEN_NAMES_F[n % GIVEN_NAMES_F.length]! : GIVEN_NAMES_M[n % GIVEN_NAMES_M.length]!;
  return `${given} ${FAMILY_NAMES[Math.floor(n / 3) % FAMILY_NAMES.length]}`;
};

export interface Story {
  title: string;
  paragraphs: string[];
  sender: string;
  senderEmail: string;
}

/**
 * A news-like story of 3–8 paragraphs, different for every n: organizations, people, money, dates,
 * places. Half the names are among the first `records` organizations and people (the tenant's
 * records when the benchmark made them), half are not.
 */
export function story(n: number, records = 300): Story {
  const next = random(n * 7919 + 17);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const org = () => organization(next() < 0.5 ? Math.floor(next() * records) : records + Math.floor(next() * 5000));
  const who = () => person(next() < 0.5 ? Math.floor(next() * records) : records + Math.floor(next() * 5000));
  const year = 2019 + Math.floor(next() * 7);
  const quarter = 1 + Math.floor(next() * 4);
  const lead = org();
  const paragraphs: string[] = [];
  const count = 3 + Math.floor(next() * 6);
  for (let p = 0; p < count; p += 1) {
    const amount = (1 + Math.floor(next() * 900)).toLocaleString('en-US');
    const sentences = [
      `${lead} said on ${pick(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'])} that revenue reached EUR ${amount} million in Q${quarter} ${year}, ${pick(['up', 'down'])} ${1 + Math.floor(next() * 30)}% from a year earlier.`,
      `"${pick(['We are confident about the second half', 'Demand stayed strong in every region', 'The market was harder than we expected', 'Costs are under control'])}," said ${who()}, ${pick(JOB_TITLES).toLowerCase()} of ${org()}.`,
      `The company plans to open an office in ${pick(CITIES)} and hire ${10 + Math.floor(next() * 400)} people by ${year + 1}, according to ${who()}.`,
      `${org()} and ${org()} signed a supply agreement worth $${1 + Math.floor(next() * 90)} million on ${1 + Math.floor(next() * 28)} ${pick(['March', 'April', 'June', 'September', 'November'])} ${year}.`,
      `Analysts at ${org()} expect margins to ${pick(['improve', 'narrow', 'stabilise'])} as input prices ${pick(['fall', 'rise', 'level off'])}; reference ${n}-${p}.`,
    ];
    paragraphs.push(sentences.filter(() => next() < 0.75).join(' ') || sentences[0]!);
  }
  const sender = who();
  return {
    title: `${lead}: results for Q${quarter} ${year} (${n})`,
    paragraphs,
    sender,
    senderEmail: `${sender.normalize('NFKD').replace(/[^A-Za-z ]/g, '').toLowerCase().replace(/ +/g, '.')}@news${n % 50}.example`,
  };
}

export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The story as plain text: its title, then its paragraphs. */
export const plainText = (s: Story) => `${s.title}\n\n${s.paragraphs.join('\n\n')}\n`;

/**
 * Plain text of at least `bytes` bytes (UTF-8): stories from `first` on, one after another, as a
 * long digest of news would read.
 */
export function longText(bytes: number, first = 0, records = 300): string {
  const parts: string[] = [];
  let size = 0;
  for (let n = first; size < bytes; n += 1) {
    const part = `${plainText(story(n, records))}\n`;
    parts.push(part);
    size += Buffer.byteLength(part);
  }
  return parts.join('');
}

/** The story as an HTML page; `withChrome` adds a menu, an aside and a footer around the article. */
export function html(s: Story, withChrome: boolean): string {
  const body = s.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  if (!withChrome) return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(s.title)}</title></head><body><h1>${escapeHtml(s.title)}</h1>\n${body}</body></html>`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(s.title)}</title></head><body>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/markets">Markets</a></li><li><a href="/companies">Companies</a></li><li><a href="/subscribe">Subscribe</a></li></ul></nav></header>
<main><article><h1>${escapeHtml(s.title)}</h1><p class="byline">By ${escapeHtml(s.sender)}</p>
${body}
</article></main>
<aside><h2>Most read</h2><ul><li><a href="/a">Markets wrap</a></li><li><a href="/b">Rates outlook</a></li></ul></aside>
<footer><p>© Example News. All rights reserved.</p></footer></body></html>`;
}

/** The story as an e-mail (.eml); every third one carries its last paragraph as a text attachment. */
export function email(s: Story, n: number): string {
  const boundary = `bench-${n}`;
  const text = s.paragraphs.join('\n\n');
  const headers = [
    `From: ${s.sender} <${s.senderEmail}>`,
    'To: research@intelnotes.example',
    `Subject: ${s.title}`,
    `Date: ${new Date(Date.UTC(2025, 0, 1) + n * 3_600_000).toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${n}.bench@intelnotes.example>`,
    'MIME-Version: 1.0',
  ];
  if (n % 3 !== 0) return [...headers, 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: 8bit', '', text, ''].join('\r\n');
  return [
    ...headers,
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    s.paragraphs.slice(0, -1).join('\n\n') || text,
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8; name="notes.txt"',
    'Content-Disposition: attachment; filename="notes.txt"',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(s.paragraphs.at(-1)!).toString('base64').replace(/.{76}/g, '$&\r\n'),
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

/** A table of `rows` deals (date, organization, counterparty, contact, amount, city), header first. */
export function deals(n: number, rows: number, records = 300): string[][] {
  const next = random(n * 104_729 + 3);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const org = () => organization(next() < 0.5 ? Math.floor(next() * records) : records + Math.floor(next() * 5000));
  const who = () => person(next() < 0.5 ? Math.floor(next() * records) : records + Math.floor(next() * 5000));
  const table = [['Date', 'Organization', 'Counterparty', 'Contact', 'Amount (EUR)', 'City']];
  for (let row = 0; row < rows; row += 1) {
    const date = new Date(Date.UTC(2019 + Math.floor(next() * 7), Math.floor(next() * 12), 1 + Math.floor(next() * 28))).toISOString().slice(0, 10);
    table.push([date, org(), org(), who(), String(1000 * (1 + Math.floor(next() * 90_000))), pick(CITIES)]);
  }
  return table;
}

const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The table as CSV (RFC 4180, CRLF). */
export const csv = (table: string[][]) => `${table.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;

/** The table as an .xlsx, written by the app's own streaming writer. */
export const spreadsheet = (table: string[][]) => xlsx(table);

const escapeXml = (text: string) => escapeHtml(text).replace(/"/g, '&quot;');

/** A minimal Word document (.docx: content types, the package relationship, the body): the title and a paragraph each. */
export function docx(s: Story): Buffer {
  const paragraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
  const files = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
        [s.title, ...s.paragraphs].map(paragraph).join('') +
        '</w:body></w:document>',
    ),
  };
  return Buffer.from(zipSync(files, { level: 6 }));
}

/** Lines of at most `width` characters, broken at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A PDF with a text layer (no OCR needed): the story in Helvetica (WinAnsi; characters outside
 * Latin-1 become "?"), 50 lines a page, one uncompressed content stream per page.
 */
export function pdf(s: Story): Buffer {
  const lines = [s.title, '', ...s.paragraphs.flatMap((p) => [...wrap(p, 90), ''])];
  const pages: string[][] = [];
  for (let index = 0; index < lines.length; index += 50) pages.push(lines.slice(index, index + 50));
  const literal = (text: string) => `(${text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?').replace(/[\\()]/g, '\\$&')})`;
  // Objects: 1 catalog, 2 pages, 3 font, then a page and its content per page.
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.map((_, index) => `${4 + index * 2} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  for (const [index, page] of pages.entries()) {
    const content = `BT /F1 11 Tf 14 TL 56 760 Td ${page.map((line) => `${literal(line)} Tj T*`).join(' ')} ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + index * 2} 0 R >>`);
    objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
  }
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (const [index, object] of objects.entries()) {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export interface UploadFile {
  name: string;
  contentType: string;
  body: Uint8Array;
}

/** POST raw-data/upload/ with these files (multipart, at most RAW_DATA_MAX_FILES = 200); the new items' ids, in order. */
export function uploadFiles(port: number, host: string, token: string, files: UploadFile[]): Promise<string[]> {
  const boundary = `bench-${randomBytes(8).toString('hex')}`;
  const parts: Uint8Array[] = [];
  for (const file of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.contentType}\r\n\r\n`));
    parts.push(file.body);
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(parts);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1', port, method: 'POST', path: '/api/v1/raw-data/upload/',
        headers: { host, authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => {
          if (response.statusCode !== 201) return reject(new Error(`upload answered ${response.statusCode}: ${text.slice(0, 500)}`));
          const results = JSON.parse(text).results as Array<{ status: number; item?: { id: string }; error?: unknown }>;
          const failed = results.filter((result) => result.status !== 201);
          if (failed.length > 0) return reject(new Error(`${failed.length} files refused: ${JSON.stringify(failed[0])}`));
          resolve(results.map((result) => result.item!.id));
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
