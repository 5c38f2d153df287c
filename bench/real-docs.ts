/**
 * Every file of the public corpus in ../shared/real-docs (issue 26 item 4): what the product
 * reads of each — status, warnings, seconds, characters — and whether it is right.
 *
 *   node --import tsx bench/real-docs.ts            # reading: extractText on each file, in this process
 *   node --import tsx bench/real-docs.ts product    # the product as `npm start` runs it: upload all, process all
 *
 * **reading** runs extractText (the job's reader, with the job's soft time limit: 70% of 5
 * minutes) on every file, one at a time, after a warm-up of each reader, and times each.
 * **product** starts server/src/main.ts (supervisor, embedded PostgreSQL in a fresh DATA_DIR, the
 * API and the default WORKERS worker processes; WORKERS / WORKER_CONCURRENCY pass through),
 * signs in as the seeded admin on `demo`, uploads every file (50 per request), asks to process
 * them all, and waits: files a minute from the request to the last item's processed_at, and the
 * peak RSS (VmHWM, reset before processing) of the API, each worker and PostgreSQL (all its
 * processes, summed per sample). Both print a row per file and a summary per format, and write
 * them to bench/results/real-docs-<mode>-<time>.md.
 *
 * BENCH_REAL_DOCS (../shared/real-docs) is the corpus; BENCH_REAL_DOCS_ONLY=img/,.pptx reads only
 * the files whose path holds one of these.
 *
 * Correctness, per file, from the first check that applies:
 *   - a PDF: its words against `pdftotext` (poppler-utils) of the same pages (the first 500):
 *     the share of pdftotext's words (letters and digits, 2 or more, case folded, as a multiset)
 *     found in our text — right at 0.9 or more. A PDF pdftotext finds no text in (a scan) falls
 *     to the next checks.
 *   - a twin: the same document in another format the corpus holds (fake.doc ↔ fake.docx,
 *     fake-text-utf-16.txt ↔ fake-text.txt, img/DA-1p.png ↔ pdf/DA-1p.pdf, …): the same share of
 *     the twin's words (as read by pdftotext for a PDF, by extractText otherwise), 0.9; 0.8 for OCR.
 *   - known content: phrases the file holds, written here after reading the files.
 *   - a refusal the file deserves (an encrypted PDF, audio): right when the code is the one listed;
 *     Chinese or Japanese in an image (English OCR only): right when a warning says it was not read.
 *   - no text to find (an empty sheet, a photo): right when the text is empty and a warning says so.
 *   - else "unchecked" (read, nothing to check it against).
 * "Silently incomplete": read, a check failed, and no warning said anything. The target (issue
 * 26): at least 95% read right or refused with a specific, true reason; none silently incomplete.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { register } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { strFromU8, unzipSync } from 'fflate';
import { closeOcrWorker, extractText, TextExtractionError, type ExtractedText } from '../server/src/processing/text/index.ts';
import { uploadFiles } from './documents.ts';
import { freePort, kib, procStatus, resetPeak, startProduct } from './product.ts';
import { call } from './server.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = path.resolve(REPO_ROOT, process.env['BENCH_REAL_DOCS'] ?? '../shared/real-docs');
const RESULTS = path.join(REPO_ROOT, 'bench', 'results');
const ADMIN = { email: 'admin@intelnotes.local', password: 'intelnotes-admin' };
/** The processing job's soft limit on reading: 70% of its 5 minutes (rawdata.processing.ts). */
const READING_DEADLINE_MS = 210_000;
const RIGHT_SHARE = 0.9;
const LOAD_AT_START = os.loadavg();
const RIGHT_SHARE_OCR = 0.8;

/** The same document in another format, relative to the corpus's example-docs folder (#N: only page N of a PDF). */
const TWINS: Record<string, string> = {
  'fake.doc': 'fake.docx',
  'simple.doc': 'simple.docx',
  'duplicate-paragraphs.doc': 'duplicate-paragraphs.docx',
  'fake-doc-emphasized-text.doc': 'fake-doc-emphasized-text.docx',
  'fake-power-point.ppt': 'fake-power-point.pptx',
  'fake-text-utf-16.txt': 'fake-text.txt',
  'fake-text-utf-16-le.txt': 'fake-text.txt',
  'fake-text-utf-16-be.txt': 'fake-text.txt',
  'fake-text-utf-32.txt': 'fake-text.txt',
  'factbook-utf-16.xml': 'factbook.xml',
  'stanley-cups-utf-16.csv': 'stanley-cups.csv',
  'stanley-cups.tsv': 'stanley-cups.csv',
  'example-steelJIS-datasheet-utf-16.html': 'example-steelJIS-datasheet.html',
  'umlauts-non-utf8.md': 'umlauts-utf8.md',
  'handbook-1p-no-rendered-page-breaks.docx': 'handbook-1p.docx',
  'img/DA-1p.png': 'pdf/DA-1p.pdf',
  'img/DA-1p.jpg': 'pdf/DA-1p.pdf',
  'img/DA-1p.heic': 'pdf/DA-1p.pdf',
  'img/layout-parser-paper-fast.jpg': 'pdf/layout-parser-paper-fast.pdf#1',
  'img/layout-parser-paper-fast.tiff': 'pdf/layout-parser-paper-fast.pdf#1',
  'img/layout-parser-paper-with-table.jpg': 'pdf/layout-parser-paper-with-table.pdf',
  'img/embedded-images-tables.jpg': 'pdf/embedded-images-tables.pdf',
  'img/table-multi-row-column-cells.png': 'table-multi-row-column-cells-actual.csv',
  'pdf/table-multi-row-column-cells.pdf': 'table-multi-row-column-cells-actual.csv',
  'language-docs/eng_spa_mult.doc': 'language-docs/eng_spa_mult.txt',
  'language-docs/eng_spa_mult.docx': 'language-docs/eng_spa_mult.txt',
  'language-docs/eng_spa_mult.eml': 'language-docs/eng_spa_mult.txt',
  'language-docs/eng_spa_mult.epub': 'language-docs/eng_spa_mult.txt',
  'language-docs/eng_spa_mult.html': 'language-docs/eng_spa_mult.txt',
  'language-docs/eng_spa_mult.md': 'language-docs/eng_spa_mult.txt',
  'language-docs/eng_spa_mult.odt': 'language-docs/eng_spa_mult.txt',
  'language-docs/eng_spa_mult.org': 'language-docs/eng_spa_mult.txt',
  'language-docs/eng_spa_mult.ppt': 'language-docs/eng_spa_mult.txt',
  'language-docs/eng_spa_mult.pptx': 'language-docs/eng_spa_mult.txt',
  'language-docs/eng_spa_mult.rst': 'language-docs/eng_spa_mult.txt',
  'language-docs/eng_spa_mult.rtf': 'language-docs/eng_spa_mult.txt',
  'language-docs/eng_spa_mult.xml': 'language-docs/eng_spa_mult.txt',
  'test_evaluate_files/gold_standard_cct/currency.csv.txt': 'test_evaluate_files/unstructured_output_cct/currency.csv.txt',
};

/** Phrases each file holds (read in the files themselves); all must be found, spacing aside. */
const TEST_EMAIL = ['Subject: Test Email', 'This is a test email to use for unit tests.', 'Roses are red', 'Violets are blue'];
const KNOWN: Record<string, string[]> = {
  // The e-mails' twins differ in their headers (To, Date): their bodies are what must match.
  'fake-email.msg': ['From: Matthew Robinson <mrobinson@unstructured.io>', ...TEST_EMAIL],
  'eml/fake-email-utf-16.eml': TEST_EMAIL,
  'eml/fake-email-utf-16-le.eml': TEST_EMAIL,
  'eml/fake-email-utf-16-be.eml': TEST_EMAIL,
  'fake-email-attachment.msg': ['Subject: Fake email with attachment', "Here's the attachments!", 'Hey this is a fake attachment!'],
  'fake-doc.rtf': ['My First Heading', 'Column 1 | Column 2', 'Row 2, Cell 1 | Row 2, Cell 2'],
  'fake.odt': ['Lorem ipsum dolor sit amet.'],
  'simple.odt': ['These are a few of my favorite things', 'Hockey', 'Analysis'],
  'tests-example.xls': ['What is 2+2?', 'What C datatypes are 8 bits'],
  'winter-sports.epub': ['Winter Sports in Switzerland', 'E. F. Benson'],
  'fake-email-with-cc-and-bcc.msg': ['From: John <johnjennings702@gmail.com>', 'Cc: '],
  'fake-encrypted.msg': ['-----BEGIN PGP MESSAGE-----'],
  'arbitrary-records.ndjson': ['Garden Trowel', 'Watering Can', 'Pruning Shears'],
  'simple.ndjson': ['These are a few of my favorite things'],
  'example-steelJIS-datasheet.html': ['0.39 - 0.46 | 0.2 - 0.35 | 0.65 - 1.1', 'Bars | 890 | 1000 | 12 | 40'],
  'fake-power-point.pptx': ['Adding a Bullet Slide', 'Here is some text in a text box!'],
  'fake-power-point-table.pptx': ['Column 1 | Column 2 | Column 3', 'Red | Green | Blue'],
  'fake-power-point-many-pages.pptx': ['Page 1', 'Page 2'],
  'sample-presentation.pptx': ['This is the first content slide'],
  'simple.pptx': ['Things to think about', 'How much is enough?'],
  'group-shapes-nested.pptx': ['A', 'J'],
  'science-exploration-1p.pptx': ['Sciences and Exploration Directorate'],
  'fake-text.txt': ['This is a test document to use for unit tests.', 'Doylestown, PA 18901'],
  'eml/fake-email.eml': ['This is a test email to use for unit tests.', 'Violets are blue'],
  'handbook-872p.docx': ['Executive Office for United States Trustees'],
  'example-10k.html': ['SECURITIES AND EXCHANGE COMMISSION'],
  'eml/email-no-utf8-2008-07-16.062410.eml': ['From: Tamir Erez'],
  'eml/email-no-utf8-2014-03-17.111517.eml': ['From: no-reply@accounts.google.com'],
  'test_evaluate_files/gold_standard_cct/Performance-Audit-Discussion.pdf.txt': ['The introductory chapter of Government Auditing Standards'],
};

/**
 * The whole text of files where pdftotext is no reference: `fake-bold-sample.pdf` paints each
 * glyph of two lines twice, a fraction of a point apart, and pdftotext's merging of the copies
 * splits its words ("BOL D T EXT SAMPL E", "Tes t i ng Dedupl i c at i on"). Written from the
 * page as drawn (its own note says what the lines are). Judged like a twin, and before pdftotext.
 */
const KNOWN_TEXT: Record<string, string> = {
  'pdf/fake-bold-sample.pdf': `Fake Bold PDF Test Document
Normal text: Hello World
Fake bold text below (each character drawn twice):
BOLD TEXT SAMPLE
Testing Deduplication
More normal text: The quick brown fox jumps over the lazy dog.
Note: The 'fake bold' lines above have each character rendered twice
at slightly offset positions, which causes text extraction to show
doubled characters like 'BBOOLLDD' instead of 'BOLD'.`,
};

/** Files that cannot be read, and the refusal they deserve. */
const REFUSALS: Record<string, string> = {
  'CantinaBand3.wav': 'unsupported',
  'password_protected.xlsx': 'encrypted',
  'pdf/password.pdf': 'encrypted',
};

/** Files whose right text is empty: the "No text was found" warning is the right answer. */
const NO_TEXT = new Set(['empty.xlsx', 'fake-text-all-whitespace.txt', 'eml/empty.eml', 'img/bmp_24.bmp', 'img/example.jpg', 'test-image-jpg-mime.pptx']);

/** Text the product cannot read, where saying so is the right answer: Chinese and Japanese in images (English OCR only). */
const SAID_UNREADABLE = new Set(['img/chi_sim_image.jpeg', 'img/jpn-vert.jpeg']);

type Verdict = 'right' | 'partly' | 'wrong' | 'refused right' | 'refused wrong' | 'unchecked';

interface Row {
  file: string;
  format: string;
  bytes: number;
  status: 'completed' | 'error';
  method: string;
  chars: number;
  seconds: number;
  /** This process's peak RSS while reading the file (MiB; reading mode, clear_refs before it). */
  peakMiB?: number;
  warnings: string[];
  error?: string;
  verdict: Verdict;
  check: string;
  silent: boolean;
}

// ---------------------------------------------------------------------------
// Files and checks

function listFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else found.push(path.relative(root, full));
    }
  };
  walk(root);
  return found;
}

const formatOf = (file: string) => {
  const base = path.basename(file);
  const ext = base.includes('.') ? base.slice(base.lastIndexOf('.') + 1).toLowerCase() : '(none)';
  return ext === 'htm' ? 'html' : ext === 'jpeg' ? 'jpg' : ext;
};

const words = (text: string) => (text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]{2,}/gu) ?? []);

/** The share of `reference`'s words (as a multiset) that `text` holds. */
function wordShare(text: string, reference: string): number {
  const have = new Map<string, number>();
  for (const word of words(text)) have.set(word, (have.get(word) ?? 0) + 1);
  const wanted = words(reference);
  if (wanted.length === 0) return 1;
  let found = 0;
  for (const word of wanted) {
    const left = have.get(word) ?? 0;
    if (left > 0) {
      found += 1;
      have.set(word, left - 1);
    }
  }
  return found / wanted.length;
}

let pdftotextMissing = false;
function pdftotext(file: string, page?: number): string | null {
  if (pdftotextMissing) return null;
  try {
    const pages = page ? ['-f', String(page), '-l', String(page)] : ['-l', '500'];
    return execFileSync('pdftotext', [...pages, '-enc', 'UTF-8', file, '-'], { encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') pdftotextMissing = true;
    return null;
  }
}

const collapse = (text: string) => text.replace(/\s+/g, ' ');

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
/** Markup's text: tags (and scripts, styles, comments) out, entities decoded. */
const markupText = (xml: string) =>
  xml
    .replace(/<!--[\s\S]*?-->|<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(?:#(\d+)|#x([0-9a-f]+)|(\w+));/gi, (whole, dec, hex, name) =>
      dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : (XML_ENTITIES[name.toLowerCase()] ?? whole));

/**
 * The text of the XML parts of a zip (an Office or OpenDocument file, an e-book) whose names
 * match: all of it, tags stripped, or the text of `element`'s first group where it matches (a
 * match without the group — a paragraph's end — is a line break).
 */
function zipPartsText(bytes: Uint8Array, part: RegExp, element?: RegExp, leaveOut?: RegExp): string | null {
  let parts: Record<string, Uint8Array>;
  try {
    parts = unzipSync(bytes, { filter: (entry) => part.test(entry.name) });
  } catch {
    return null;
  }
  const texts = Object.keys(parts).sort().map((name) => {
    const xml = leaveOut ? strFromU8(parts[name]!).replace(leaveOut, ' ') : strFromU8(parts[name]!);
    // Runs join as written (a word may be split over runs: "A Link exa" "m" "ple"); a paragraph's end is a line break.
    return element ? [...xml.matchAll(element)].map((match) => (match[1] === undefined ? '\n' : markupText(match[1]))).join('') : markupText(xml);
  });
  return texts.length ? texts.join('\n') : null;
}

/** An e-mail's From, To, Subject and text/plain body, by Python's email package; null for an HTML-only message. */
function emailText(file: string): string | null {
  const script = [
    'import sys, email, email.policy, re',
    'm = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)',
    'out = [str(m.get(h, "")) for h in ("From", "To", "Subject")]',
    'parts = [p for p in m.walk() if p.get_content_maintype() != "multipart" and not p.get_filename()]',
    // The plain parts only: an HTML alternative repeats them, and an HTML-only message's every
    // word is no true reference (its hidden preheader, its footer), as for a page.
    'plain = [p for p in parts if p.get_content_type() == "text/plain"]',
    'if not plain: sys.exit(3)',
    'for part in plain:',
    '    try: out.append(part.get_content())',
    '    except Exception: pass',
    'sys.stdout.write("\\n".join(out))',
  ].join('\n');
  try {
    return markupText(execFileSync('python3', ['-c', script, file], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch {
    return null;
  }
}

/**
 * A reference made without the product's readers, for formats where one is true: the text runs
 * of a DOCX's body (w:t), a PPTX's slides (a:t), an XLSX's shared strings, an OpenDocument
 * file's content.xml, an e-book's pages (tags stripped), an e-mail's headers and text parts
 * (Python's email package), a JSON or NDJSON file's keys and values as JSON.parse decodes them
 * (its raw bytes would count escapes such as "\u062f" as words), and the words of a text file
 * itself (CSV, TSV, Markdown, reStructuredText, org-mode, plain text; XML's text nodes). Our text must hold 90% of
 * its words. Not for HTML: the product keeps a page's article and tables, not its navigation,
 * so a page's every word is no true reference.
 */
function independentReference(root: string, file: string, format: string, method: string): { text: string; label: string } | null {
  const full = path.join(root, file);
  // An e-mail saved as .txt is an e-mail.
  if (method === 'email') format = 'eml';
  const bytes = new Uint8Array(readFileSync(full));
  const text = (label: string, value: string | null) => (value && words(value).length >= 5 ? { text: value, label } : null);
  switch (format) {
    case 'docx':
      // A shape's text is written twice (mc:AlternateContent: the drawing and its VML fallback): once here.
      return text('w:t runs of word/document.xml', zipPartsText(bytes, /^word\/document\.xml$/, /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<\/w:p>/g, /<mc:Fallback>[\s\S]*?<\/mc:Fallback>/g));
    case 'pptx':
      return text('a:t runs of the slides', zipPartsText(bytes, /^ppt\/slides\/slide\d+\.xml$/, /<a:t>([^<]*)<\/a:t>|<\/a:p>/g));
    case 'xlsx':
      return text('shared strings', zipPartsText(bytes, /^xl\/sharedStrings\.xml$/, /<t(?:\s[^>]*)?>([^<]*)<\/t>|<\/si>/g));
    case 'odt':
    case 'ods':
    case 'odp':
      return text('content.xml', zipPartsText(bytes, /^content\.xml$/));
    case 'epub':
      return text('its pages, tags stripped', zipPartsText(bytes, /\.x?html?$/));
    case 'eml':
      return text("Python's email package", emailText(full));
    case 'xml':
      return text('text nodes', markupText(new TextDecoder().decode(bytes)));
    case 'json':
    case 'ndjson': {
      // Its keys and values as JSON.parse decodes them: the file's raw words would count every
      // escape ("\\u062f" for د, "\\nFr" for a line break before "Fr") as a word no reader shows.
      let decoded: string;
      try {
        decoded = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        return null;
      }
      const values: unknown[] = [];
      try {
        values.push(JSON.parse(decoded));
      } catch {
        for (const line of decoded.split(/\r?\n/)) {
          try {
            values.push(JSON.parse(line));
          } catch {
            values.push(line);
          }
        }
      }
      return text('its keys and values, JSON-decoded', jsonWords(values));
    }
    case 'csv':
    case 'tsv':
    case 'md':
    case 'rst':
    case 'org':
    case 'txt':
      // UTF-8 files only: the encodings are the twins' business (fake-text-utf-16.txt ↔ fake-text.txt).
      try {
        return text('its own words', new TextDecoder('utf-8', { fatal: true }).decode(bytes));
      } catch {
        return null;
      }
    default:
      return null;
  }
}

/** Every key and every string, number and boolean of a parsed JSON value, one a line. */
function jsonWords(root: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
    else if (Array.isArray(value)) stack.push(...value);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        out.push(key);
        stack.push(child);
      }
    }
  }
  return out.join('\n');
}

async function referenceText(root: string, twin: string): Promise<string | null> {
  const [file, page] = twin.split('#') as [string, string | undefined];
  const full = path.join(root, file);
  if (!existsSync(full)) return null;
  if (file.endsWith('.pdf')) return pdftotext(full, page ? Number(page) : undefined);
  try {
    return (await extractText({ bytes: new Uint8Array(readFileSync(full)), mime: '', fileName: path.basename(file) })).text;
  } catch {
    return null;
  }
}

async function judge(root: string, file: string, outcome: { text: string; warnings: string[]; error?: TextExtractionError }, method: string): Promise<{ verdict: Verdict; check: string }> {
  const ocr = /ocr/.test(method);
  if (outcome.error) {
    const deserved = REFUSALS[file];
    if (deserved) return deserved === outcome.error.code ? { verdict: 'refused right', check: `refused: ${deserved}` } : { verdict: 'refused wrong', check: `expected ${deserved}` };
    return { verdict: 'refused wrong', check: 'should have been read' };
  }
  if (REFUSALS[file]) return { verdict: 'wrong', check: `should be refused: ${REFUSALS[file]}` };
  if (SAID_UNREADABLE.has(file)) {
    const said = outcome.warnings.some((warning) => /could not read with confidence|low confidence/.test(warning));
    return said ? { verdict: 'refused right', check: 'CJK text, English OCR: said so' } : { verdict: 'wrong', check: 'CJK text read as if English, silently' };
  }
  if (NO_TEXT.has(file)) {
    const said = outcome.warnings.some((warning) => warning.startsWith('No text was found'));
    return outcome.text.trim() === '' && said ? { verdict: 'right', check: 'no text, said so' } : { verdict: 'wrong', check: 'has no text to find' };
  }
  const checks: Array<{ share: number; label: string; threshold: number }> = [];
  if (KNOWN_TEXT[file]) checks.push({ share: wordShare(outcome.text, KNOWN_TEXT[file]), label: 'known text', threshold: RIGHT_SHARE });
  if (checks.length === 0 && file.endsWith('.pdf')) {
    const reference = pdftotext(path.join(root, file));
    if (reference && words(reference).length >= 5) checks.push({ share: wordShare(outcome.text, reference), label: 'pdftotext', threshold: ocr ? RIGHT_SHARE_OCR : RIGHT_SHARE });
  }
  if (checks.length === 0 && TWINS[file]) {
    const reference = await referenceText(root, TWINS[file]);
    if (reference) checks.push({ share: wordShare(outcome.text, reference), label: `twin ${TWINS[file]}`, threshold: ocr ? RIGHT_SHARE_OCR : RIGHT_SHARE });
  }
  if (checks.length === 0 && !KNOWN[file]) {
    const reference = independentReference(root, file, formatOf(file), method);
    if (reference) checks.push({ share: wordShare(outcome.text, reference.text), label: reference.label, threshold: RIGHT_SHARE });
  }
  if (checks.length === 0 && KNOWN[file]) {
    const text = collapse(outcome.text);
    const missing = KNOWN[file].filter((phrase) => !text.includes(collapse(phrase)));
    return missing.length === 0
      ? { verdict: 'right', check: `${KNOWN[file].length} known phrases` }
      : { verdict: missing.length === KNOWN[file].length ? 'wrong' : 'partly', check: `missing "${missing[0]}"` };
  }
  const check = checks[0];
  if (!check) return { verdict: outcome.text.trim() === '' ? 'wrong' : 'unchecked', check: outcome.text.trim() === '' ? 'no text' : '' };
  const share = `${check.label} ${(check.share * 100).toFixed(0)}%`;
  if (check.share >= check.threshold) return { verdict: 'right', check: share };
  return { verdict: check.share >= 0.5 ? 'partly' : 'wrong', check: share };
}

// ---------------------------------------------------------------------------
// Reading: extractText in this process

async function readAll(root: string, files: string[]): Promise<Row[]> {
  // As a worker process does (worker.ts): installed packages' ES modules load without tsx's transform.
  register('../server/src/processes/dependency-loader.mjs', import.meta.url);
  // Each reader's first use loads it (pdf.js, Tesseract, SheetJS…): not the file's cost. A
  // partial run (BENCH_REAL_DOCS_ONLY, for checking a few files) skips it: its times are the cold ones.
  for (const warm of process.env['BENCH_REAL_DOCS_ONLY'] ? [] : ['pdf/fake-memo.pdf', 'img/DA-1p.png', 'tests-example.xls', 'fake.docx']) {
    if (existsSync(path.join(root, warm))) await extractText({ bytes: new Uint8Array(readFileSync(path.join(root, warm))), mime: '' }).catch(() => undefined);
  }
  const rows: Row[] = [];
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(path.join(root, file)));
    resetPeak(process.pid);
    const started = performance.now();
    let result: ExtractedText | null = null;
    let error: TextExtractionError | undefined;
    try {
      result = await extractText({ bytes, mime: '', fileName: path.basename(file) }, { deadline: AbortSignal.timeout(READING_DEADLINE_MS) });
    } catch (failure) {
      if (!(failure instanceof TextExtractionError)) throw failure;
      error = failure;
    }
    const seconds = (performance.now() - started) / 1000;
    const peakMiB = kib(procStatus(process.pid), 'VmHWM') / 1024;
    const text = result?.text ?? '';
    const warnings = result?.warnings ?? [];
    const method = result?.method ?? error!.code;
    const { verdict, check } = await judge(root, file, { text, warnings, ...(error ? { error } : {}) }, method);
    rows.push({
      file, format: formatOf(file), bytes: bytes.length, status: error ? 'error' : 'completed', method, chars: text.length, seconds, peakMiB, warnings,
      ...(error ? { error: `${error.code}: ${error.message}` } : {}), verdict, check,
      silent: (verdict === 'partly' || verdict === 'wrong') && !error && warnings.length === 0,
    });
    console.error(`${file}: ${rows.at(-1)!.status} ${method} ${text.length} chars ${seconds.toFixed(1)} s ${peakMiB.toFixed(0)} MiB ${verdict} ${check}${result?.ocr ? ` ocr ${result.ocr.map((page) => page.confidence).join(',')}` : ''} ${warnings.join(' / ')}`);
  }
  await closeOcrWorker();
  return rows;
}

// ---------------------------------------------------------------------------
// Product: the default setup, everything uploaded and processed

interface ProductResult {
  rows: Row[];
  seconds: number;
  peaks: Record<string, number>;
  settings: string;
  /** The server's memory at its fullest instant: the sum of every process's PSS (MiB), and when (s). */
  total: number;
  totalAt: number;
  /** Children the supervisor started again (a worker recycled past its memory mark, or a death). */
  deaths: number;
}

/** A process's proportional set size in MiB (0 when it is gone). */
function pss(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

function postgresPids(dataDir: string): number[] {
  try {
    const postmaster = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return [postmaster, ...children];
  } catch {
    return [];
  }
}

const MIME_BY_EXT: Record<string, string> = { pdf: 'application/pdf', html: 'text/html', txt: 'text/plain', eml: 'message/rfc822', json: 'application/json', csv: 'text/csv' };

async function processAll(root: string, files: string[]): Promise<ProductResult> {
  mkdirSync(RESULTS, { recursive: true });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-bench-real-docs-'));
  const port = await freePort();
  const log = path.join(RESULTS, `real-docs-product-${stamp()}.log`);
  const product = await startProduct(dataDir, port, log, [], performance.now());
  try {
    const host = `demo.localhost:${port}`;
    const login = await call(port, host, 'POST', '/api/v1/auth/login/', ADMIN);
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${JSON.stringify(login.json)}`);
    const token = login.json.token as string;
    const ids: string[] = [];
    for (let index = 0; index < files.length; index += 50) {
      const batch = files.slice(index, index + 50).map((file) => ({
        name: file.replaceAll('/', '__'),
        contentType: MIME_BY_EXT[formatOf(file)] ?? 'application/octet-stream',
        body: new Uint8Array(readFileSync(path.join(root, file))),
      }));
      ids.push(...(await uploadFiles(port, host, token, batch)));
    }
    // Peaks two ways: each process's own (VmHWM, reset now; a recycled worker's successor is
    // sampled), and the server's whole at one instant — the supervisor, the API, every worker and
    // every PostgreSQL process — as the sum of their PSS (proportional set size), so memory
    // PostgreSQL's processes share (its shared buffers) is counted once, not once per process.
    const nodePids = () => new Map([...product.children].filter(([name]) => name === 'api' || name.startsWith('worker')));
    for (const pid of nodePids().values()) resetPeak(pid);
    const pgPeak = { value: 0 };
    const sampledPeak = new Map<string, number>();
    const total = { value: 0, at: 0 };
    const timeline: string[] = ['seconds,total_pss_mib,supervisor,api,workers,postgres'];
    const sampleStarted = performance.now();
    const sampler = setInterval(() => {
      const pg = postgresPids(dataDir);
      const pgRss = pg.reduce((sum, pid) => sum + (kib(procStatus(pid), 'VmRSS') || 0), 0) / 1024;
      pgPeak.value = Math.max(pgPeak.value, pgRss);
      const groups: Record<string, number> = { supervisor: pss(product.pid), api: 0, workers: 0, postgres: pg.reduce((sum, pid) => sum + pss(pid), 0) };
      for (const [name, pid] of nodePids()) {
        groups[name === 'api' ? 'api' : 'workers']! += pss(pid);
        sampledPeak.set(name, Math.max(sampledPeak.get(name) ?? 0, (kib(procStatus(pid), 'VmRSS') || 0) / 1024));
      }
      const sum = Object.values(groups).reduce((a, b) => a + b, 0);
      const seconds = (performance.now() - sampleStarted) / 1000;
      if (sum > total.value) Object.assign(total, { value: sum, at: seconds });
      timeline.push([seconds.toFixed(1), sum, groups['supervisor'], groups['api'], groups['workers'], groups['postgres']].map((value) => (typeof value === 'number' ? value.toFixed(0) : value)).join(','));
    }, 250);
    const requestedAt = Date.now();
    const queued = await call(port, host, 'POST', '/api/v1/raw-data/process/', { ids }, token);
    if (queued.status !== 202) throw new Error(`process answered ${queued.status}`);
    const count = async (status: string) => (await call(port, host, 'GET', `/api/v1/raw-data/?processing_status=${status}&limit=1`, undefined, token)).json.count as number;
    for (;;) {
      const done = (await count('completed')) + (await count('error'));
      if (done >= ids.length) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    clearInterval(sampler);
    const peaks: Record<string, number> = {};
    for (const [name, pid] of nodePids()) peaks[name] = Math.max(kib(procStatus(pid), 'VmHWM') / 1024 || 0, sampledPeak.get(name) ?? 0);
    peaks['postgres (all processes, sampled)'] = pgPeak.value;
    writeFileSync(log.replace(/\.log$/, '-memory.csv'), `${timeline.join('\n')}\n`);

    const items = new Map<string, Record<string, unknown>>();
    for (let offset = 0; offset < ids.length; offset += 100) {
      const page = await call(port, host, 'GET', `/api/v1/raw-data/?limit=100&offset=${offset}`, undefined, token);
      for (const item of page.json.results as Array<Record<string, unknown>>) items.set(String(item['id']), item);
    }
    const last = Math.max(...[...items.values()].map((item) => Date.parse(String(item['processed_at'] ?? item['updated_at']))));
    const rows: Row[] = [];
    for (const [index, file] of files.entries()) {
      const item = items.get(ids[index]!)!;
      const status = item['processing_status'] === 'completed' ? 'completed' : 'error';
      const text = status === 'completed' ? ((await call(port, host, 'GET', `/api/v1/raw-data/${ids[index]}/text/`, undefined, token)).json.text as string) : '';
      const chars = Number(item['extracted_chars'] ?? 0);
      const warnings = (item['processing_warnings'] as string[] | undefined) ?? [];
      const error = status === 'error' ? String(item['processing_error'] ?? '') : undefined;
      const refusal = error ? new TextExtractionError(refusalCode(error), error) : undefined;
      const method = String(item['extraction_method'] ?? (refusal ? refusal.code : ''));
      // The stored text is the first 200,000 characters: judged on it only where it is whole.
      const judged = chars > text.length ? { verdict: 'unchecked' as Verdict, check: 'text kept in part' } : await judge(root, file, { text, warnings, ...(refusal ? { error: refusal } : {}) }, method);
      rows.push({
        file, format: formatOf(file), bytes: statSync(path.join(root, file)).size, status, method, chars, seconds: NaN, warnings,
        ...(error ? { error } : {}), ...judged, silent: (judged.verdict === 'partly' || judged.verdict === 'wrong') && !error && warnings.length === 0,
      });
    }
    const settings = ['WORKERS', 'WORKER_CONCURRENCY'].map((name) => `${name}=${process.env[name] ?? '(default)'}`).join(' ');
    return { rows, seconds: (last - requestedAt) / 1000, peaks, settings, total: total.value, totalAt: total.at, deaths: product.deaths.length };
  } finally {
    await product.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The reader's error code from the message the item keeps (the job stores the message only). */
function refusalCode(message: string): TextExtractionError['code'] {
  if (/encrypted/i.test(message)) return 'encrypted';
  if (/cannot be read from this type|is empty|turned off|unsupported|cannot be read from this kind/i.test(message)) return 'unsupported';
  if (/too large|more than .* MB|megapixel|pixels\)/i.test(message)) return 'too_large';
  if (/no longer in the file store/i.test(message)) return 'missing';
  return 'corrupt';
}

// ---------------------------------------------------------------------------
// Report

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function report(mode: string, rows: Row[], extra: string[]): string {
  const lines: string[] = [];
  const total = rows.length;
  const right = rows.filter((row) => row.verdict === 'right' || row.verdict === 'refused right').length;
  const unchecked = rows.filter((row) => row.verdict === 'unchecked').length;
  const silent = rows.filter((row) => row.silent);
  const checked = total - unchecked;
  lines.push(`# Real documents (${mode}), ${new Date().toISOString().slice(0, 16)}Z`, '');
  lines.push(`- ${total} files from ${path.relative(REPO_ROOT, CORPUS)}; ${os.cpus().length} CPUs; Node ${process.version}; pdftotext ${pdftotextMissing ? 'missing' : 'available'}; load average at the start ${LOAD_AT_START.map((value) => value.toFixed(1)).join(' ')}, at the end ${os.loadavg().map((value) => value.toFixed(1)).join(' ')} (other work on the machine slows every time here).`);
  lines.push(...extra);
  lines.push(`- **Read right or refused rightly: ${right} of ${checked} checked (${((right / Math.max(1, checked)) * 100).toFixed(1)}%)**; ${unchecked} read with nothing to check them against.`);
  lines.push(`- Partly: ${rows.filter((row) => row.verdict === 'partly').length}; wrong: ${rows.filter((row) => row.verdict === 'wrong').length}; refused wrongly: ${rows.filter((row) => row.verdict === 'refused wrong').length}; **silently incomplete: ${silent.length}**${silent.length ? ` (${silent.map((row) => row.file).join(', ')})` : ''}.`);
  lines.push(`- With warnings: ${rows.filter((row) => row.warnings.length > 0).length}; errors: ${rows.filter((row) => row.status === 'error').length}.`, '');
  lines.push('| Format | Files | Right | Partly | Wrong | Refused right | Refused wrong | Unchecked | With warnings | Seconds (sum) | Characters (sum) |');
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
  const formats = [...new Set(rows.map((row) => row.format))].sort();
  for (const format of formats) {
    const of = rows.filter((row) => row.format === format);
    const n = (verdict: Verdict) => of.filter((row) => row.verdict === verdict).length;
    const seconds = of.reduce((sum, row) => sum + row.seconds, 0);
    lines.push(`| ${format} | ${of.length} | ${n('right')} | ${n('partly')} | ${n('wrong')} | ${n('refused right')} | ${n('refused wrong')} | ${n('unchecked')} | ${of.filter((row) => row.warnings.length > 0).length} | ${Number.isNaN(seconds) ? '–' : seconds.toFixed(1)} | ${of.reduce((sum, row) => sum + row.chars, 0).toLocaleString('en')} |`);
  }
  lines.push('', '| File | Status | Method | Chars | Seconds | Peak MiB | Verdict | Check | Warnings or error |', '|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const said = row.error ?? row.warnings.join(' / ');
    lines.push(`| ${cell(row.file)} | ${row.status} | ${row.method} | ${row.chars.toLocaleString('en')} | ${Number.isNaN(row.seconds) ? '–' : row.seconds.toFixed(2)} | ${row.peakMiB === undefined ? '–' : row.peakMiB.toFixed(0)} | ${row.verdict}${row.silent ? ' (silent)' : ''} | ${cell(row.check)} | ${cell(said.slice(0, 300))} |`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const mode = process.argv[2] === 'product' ? 'product' : 'reading';
  const root = existsSync(path.join(CORPUS, 'unstructured-example-docs')) ? path.join(CORPUS, 'unstructured-example-docs') : CORPUS;
  if (!existsSync(root)) throw new Error(`no corpus at ${CORPUS} (BENCH_REAL_DOCS)`);
  const only = process.env['BENCH_REAL_DOCS_ONLY'];
  const files = listFiles(root).filter((file) => !only || only.split(',').some((part) => file.includes(part)));
  let text: string;
  if (mode === 'reading') {
    const started = performance.now();
    const rows = await readAll(root, files);
    const seconds = (performance.now() - started) / 1000;
    const reading = rows.reduce((sum, row) => sum + row.seconds, 0);
    text = report('reading, extractText in one process', rows, [
      `- Reading alone, one file at a time: ${reading.toFixed(1)} s in all (${((files.length / reading) * 60).toFixed(0)} files a minute); the run with its checks ${seconds.toFixed(0)} s; peak RSS of this process ${(kib(procStatus(process.pid), 'VmHWM') / 1024).toFixed(0)} MiB.`,
    ]);
  } else {
    const result = await processAll(root, files);
    const sum = Object.entries(result.peaks).filter(([name]) => name !== 'postgres (all processes, sampled)').reduce((total, [, mib]) => total + mib, 0);
    text = report('product, npm start', result.rows, [
      `- The product as \`npm start\` runs it (${result.settings}): **${result.seconds.toFixed(1)} s from POST raw-data/process to the last item processed: ${((files.length / result.seconds) * 60).toFixed(1)} files a minute**.`,
      `- **Peak server memory: ${result.total.toFixed(0)} MiB** (${result.totalAt.toFixed(0)} s into processing): the supervisor, the API, the workers and every PostgreSQL process at one instant, as the sum of their PSS (shared pages counted once), sampled every 250 ms; timeline in the \`-memory.csv\` beside the log. Children started again meanwhile: ${result.deaths}.`,
      `- Peak RSS of each process while processing (VmHWM, reset before, and sampled): ${Object.entries(result.peaks).map(([name, mib]) => `${name} ${mib.toFixed(0)} MiB`).join(', ')}; the Node processes' peaks added up ${sum.toFixed(0)} MiB (each at its own moment).`,
      '- Seconds per file are not measured here (the reading mode does); a text kept only in part (over 200,000 characters) is not judged.',
    ]);
  }
  mkdirSync(RESULTS, { recursive: true });
  const out = path.join(RESULTS, `real-docs-${mode}-${stamp()}.md`);
  writeFileSync(out, text);
  console.log(text);
  console.error(`written to ${path.relative(REPO_ROOT, out)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
