/**
 * What a visitor's browser loads for the home page, and how long the first and a repeated
 * load take: Debian's Chromium (playwright-core) opens the home page of the largest benchmark
 * tenant as a visitor, served by the API process from a built web app.
 *
 *   node --import tsx bench/first-load.ts [database] [web dist folder…]
 *
 * For each dist folder (default web/dist; pass two builds to compare them): every script the
 * page loads with its size as sent (Content-Encoding as negotiated), decoded, and gzip -9 (the
 * budget is counted in gzip), then BENCH_LOADS cold loads (fresh browser profile: no cache)
 * and as many warm reloads (same profile), each timed to the moment the home cards show their
 * counts — over loopback, and over an emulated 10 Mbit/s link with 40 ms round trips (Chromium's
 * network emulation), where the bytes sent matter. Prints a Markdown report.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { readSettings, tenantCode } from './config.ts';
import { startServer } from './server.ts';

const settings = readSettings();
const dists = process.argv.slice(2).filter((arg) => arg.includes('/'));
if (dists.length === 0) dists.push('web/dist');
const LOADS = Number(process.env['BENCH_LOADS'] ?? '5');
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

interface Script {
  file: string;
  encoding: string;
  sent: number;
  decoded: number;
  gzip: number;
}

const kB = (bytes: number) => (bytes / 1000).toFixed(1);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** A 10 Mbit/s down, 5 Mbit/s up link with 40 ms of latency. */
const LINK = { offline: false, latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 5e6 / 8 };

/** Opens the home page and waits until a home card shows a number (the counts have arrived). */
async function openHome(page: Page, url: string): Promise<number> {
  const started = performance.now();
  await page.goto(url);
  await page.locator('[data-testid^="home-card-"]').filter({ hasText: /\d/ }).first().waitFor({ timeout: 120_000 });
  return performance.now() - started;
}

async function measure(browser: Browser, dist: string) {
  const server = await startServer(settings.databaseUrl, { env: { WEB_DIST: path.resolve(dist) } });
  const url = `http://${tenantCode(1)}.localhost:${server.port}/`;
  try {
    // One load recording every script response.
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts: Script[] = [];
    page.on('response', async (response) => {
      const file = new URL(response.url()).pathname;
      if (!file.endsWith('.js')) return;
      const body = await response.body();
      const sizes = await response.request().sizes();
      scripts.push({
        file,
        encoding: (await response.headerValue('content-encoding')) ?? 'identity',
        sent: sizes.responseBodySize,
        decoded: body.length,
        gzip: gzipSync(body, { level: 9 }).length,
      });
    });
    await openHome(page, url);
    await page.waitForLoadState('networkidle');
    await context.close();

    const timings = async (throttled: boolean) => {
      const cold: number[] = [];
      const warm: number[] = [];
      for (let round = 0; round < LOADS; round += 1) {
        const fresh = await browser.newContext();
        const tab = await fresh.newPage();
        if (throttled) await (await fresh.newCDPSession(tab)).send('Network.emulateNetworkConditions', LINK);
        cold.push(await openHome(tab, url));
        await tab.waitForLoadState('networkidle');
        warm.push(await openHome(tab, url));
        await fresh.close();
      }
      return { cold, warm };
    };
    return { scripts, loopback: await timings(false), link: await timings(true) };
  } finally {
    await server.stop();
  }
}

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const dist of dists) {
    if (!existsSync(path.join(dist, 'index.html'))) throw new Error(`${dist} has no index.html: build the web app first`);
    const { scripts, loopback, link } = await measure(browser, dist);
    const sum = (key: 'sent' | 'decoded' | 'gzip') => scripts.reduce((total, script) => total + script[key], 0);
    const precompressed = scripts.filter((script) => existsSync(path.join(dist, `${script.file}.br`))).length;
    console.log(`\n### ${dist} (${readFileSync(path.join(dist, 'index.html')).length} B index.html)\n`);
    console.log('| Script | Encoding | Sent (kB) | Decoded (kB) | gzip -9 (kB) |\n|---|---|---:|---:|---:|');
    for (const script of scripts) {
      console.log(`| \`${script.file}\` | ${script.encoding} | ${kB(script.sent)} | ${kB(script.decoded)} | ${kB(script.gzip)} |`);
    }
    console.log(`| **${scripts.length} scripts** | | **${kB(sum('sent'))}** | **${kB(sum('decoded'))}** | **${kB(sum('gzip'))}** |`);
    console.log(`\n${precompressed} of them have a precompressed copy in the build.`);
    for (const [label, { cold, warm }] of [['loopback', loopback], ['10 Mbit/s, 40 ms link', link]] as const) {
      console.log(
        `Home page until the counts show (${label}), ${LOADS} loads: cold (no cache) median ${median(cold).toFixed(0)} ms ` +
          `(${cold.map((ms) => ms.toFixed(0)).join(', ')}); warm reload median ${median(warm).toFixed(0)} ms ` +
          `(${warm.map((ms) => ms.toFixed(0)).join(', ')}).`,
      );
    }
  }
} finally {
  await browser.close();
}
