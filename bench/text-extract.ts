/**
 * Text extraction from a long PDF (docs/processing.md, "Text from files"; issue 16 item 7:
 * "a 300-page PDF without a memory blow-up"): builds a PDF of BENCH_PDF_PAGES (300) pages of
 * generated prose with LibreOffice at bench time (nothing large is committed), then reads it
 * with extractText in this process, after a one-page warm-up, BENCH_PDF_RUNS (3) times, and
 * prints the time, the text's size and the process's RSS before, peak during (VmHWM, reset
 * before each run) and after.
 *
 *   node --import tsx bench/text-extract.ts
 *
 * Needs `soffice` (apt-get install libreoffice-writer).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractText } from '../server/src/processing/text/index.ts';

const int = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
};
const PAGES = int('BENCH_PDF_PAGES', 300);
const RUNS = int('BENCH_PDF_RUNS', 3);

const COMPANIES = ['Acme Holdings GmbH', 'Northwind Traders Ltd', 'Fenwick Capital', 'Harbour Logistics SA', 'Blue Ridge Energy Inc'];
const PEOPLE = ['Jane Doe', 'Daniel Okafor', 'Laura Brandt', 'Maria Santos', 'Tom Becker'];
const CITIES = ['Berlin', 'Lisbon', 'Rotterdam', 'Warsaw', 'Dublin'];

/** A page of prose that differs from page to page (so fonts and text are really laid out). */
function pageHtml(page: number): string {
  const paragraphs = Array.from({ length: 6 }, (_, index) => {
    const n = page * 7 + index;
    const company = COMPANIES[n % COMPANIES.length]!;
    const person = PEOPLE[(n * 3) % PEOPLE.length]!;
    const city = CITIES[(n * 2) % CITIES.length]!;
    return (
      `<p>Section ${page}.${index + 1}. ${company} reported revenue of ${(n % 90) + 10} million euros for the quarter, ` +
      `and ${person}, its chief financial officer, said the new office in ${city} would open in ${2020 + (n % 6)}. ` +
      `The board approved a dividend of ${(n % 40) / 10 + 0.5} euros per share; analysts had expected less. ` +
      `Shipments through ${city} rose by ${n % 30} percent compared with the same period a year earlier.</p>`
    );
  });
  // The break on the heading (a paragraph): LibreOffice's HTML import drops some of those set on a <div>.
  return `<h2${page > 1 ? ' style="page-break-before: always"' : ''}>Page ${page}</h2>${paragraphs.join('')}`;
}

function buildPdf(folder: string): Uint8Array {
  const html = path.join(folder, 'long.html');
  writeFileSync(html, `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${Array.from({ length: PAGES }, (_, index) => pageHtml(index + 1)).join('')}</body></html>`);
  try {
    execFileSync('soffice', ['--headless', `-env:UserInstallation=file://${folder}/profile`, '--convert-to', 'pdf:writer_pdf_Export', '--outdir', folder, html], { stdio: 'ignore', timeout: 600_000 });
  } catch (error) {
    throw new Error(`soffice could not make the PDF (apt-get install libreoffice-writer): ${(error as Error).message}`);
  }
  return new Uint8Array(readFileSync(path.join(folder, 'long.pdf')));
}

/** The process's peak resident memory since the last `resetPeakRss`, in MiB (Linux: VmHWM). */
function peakRssMiB(): number {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

/** Sets the peak back to the current RSS (writing 5 to clear_refs, Linux 4.0+). */
const resetPeakRss = () => writeFileSync('/proc/self/clear_refs', '5');

const rssMiB = () => Math.round(process.memoryUsage().rss / 1048576);

const folder = mkdtempSync(path.join(os.tmpdir(), 'intelnotes-text-bench-'));
try {
  let started = Date.now();
  const pdf = buildPdf(folder);
  console.log(`PDF: ${PAGES} pages requested, ${(pdf.length / 1024).toFixed(0)} KiB, made by LibreOffice in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  // Warm-up: pdf.js loaded and one page read, so the runs measure reading, not loading.
  started = Date.now();
  await extractText({ bytes: pdf, mime: 'application/pdf' }, { limits: { maxPages: 1 } });
  console.log(`Warm-up (pdf.js loaded, 1 page read): ${((Date.now() - started) / 1000).toFixed(1)} s, RSS ${rssMiB()} MiB`);
  console.log('');
  console.log('| Run | Pages read | Characters | Seconds | Pages/s | RSS before (MiB) | Peak RSS during (MiB) | RSS after (MiB) |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (let run = 1; run <= RUNS; run += 1) {
    const before = rssMiB();
    resetPeakRss();
    started = Date.now();
    const result = await extractText({ bytes: pdf, mime: 'application/pdf' }, { signal: AbortSignal.timeout(600_000) });
    const seconds = (Date.now() - started) / 1000;
    const peak = peakRssMiB();
    const pagesRead = result.segments.filter((segment) => segment.label.startsWith('page ')).length;
    console.log(
      `| ${run} | ${pagesRead} of ${result.pages} | ${result.text.length.toLocaleString('en')} | ${seconds.toFixed(1)} | ${(pagesRead / seconds).toFixed(0)} | ${before} | ${peak} | ${rssMiB()} |`,
    );
  }
  console.log('');
  console.log(`${os.cpus().length} CPUs, load average ${os.loadavg().map((value) => value.toFixed(1)).join(' ')}, Node ${process.version}`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
