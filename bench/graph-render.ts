/**
 * How the relationship graph draws at 2,000 nodes: Debian's Chromium (playwright-core, no GPU)
 * draws a synthetic depth-2 neighbourhood with cytoscape and exactly the web app's options and
 * styles (web/src/features/graph/graph-style.ts) and layout (rings, ringsOf, as GraphCanvas.tsx
 * lays out an answer of more than 300 records), and times
 *
 * - the first render: from creating the graph (elements added, laid out) to the first frame painted;
 * - a pan frame and a zoom frame: from a viewport change to cytoscape's next drawn frame (it
 *   moves a texture of the last frame while the viewport changes: `textureOnViewport`), each
 *   BENCH_FRAMES times;
 * - a selection once the viewport rests: a node selected (its edges highlighted, as a click
 *   does) to the frame drawn, a full redraw.
 *
 * Each with the page's main-thread CPU time (CDP Performance.getMetrics ThreadTime), which the
 * load of a shared machine does not inflate as it does wall time.
 *
 *   node --import tsx bench/graph-render.ts [nodes…]      (default 500 2000 5000)
 *
 * Prints a Markdown table (docs/BENCHMARKS.md "Relationship graph").
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { GRAPH_OPTIONS, GRAPH_STYLE, kindLook, RING_LAYOUT, RINGS_CENTRE, ringsOf } from '../web/src/features/graph/graph-style.ts';

const require = createRequire(import.meta.url);
const CYTOSCAPE = require.resolve('cytoscape/dist/cytoscape.min.js', { paths: [new URL('../web/', import.meta.url).pathname] });
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
const FRAMES = Number(process.env['BENCH_FRAMES'] ?? '30');
const SIZES = process.argv.slice(2).map(Number).filter((n) => n > 0);
if (SIZES.length === 0) SIZES.push(500, 2000, 5000);

/** The ring layout's options but its functions (the page script gives them: functions do not cross into the page). */
const RING_DATA = Object.fromEntries(Object.entries(RING_LAYOUT).filter(([, value]) => typeof value !== 'function'));

const KINDS = ['organizations', 'people', 'ledger_entries', 'library'];

/** A root, about a twentieth of the nodes one step away, the rest two steps, each tied to one to three of the first ring: like a graph answer. */
function neighbourhood(size: number) {
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const nodes = [{ id: 'n0', label: 'The record', kind: 'organizations', depth: 0 }];
  const first = Math.max(1, Math.round(size / 20));
  for (let index = 1; index < size; index++) {
    const kind = KINDS[index % KINDS.length]!;
    nodes.push({ id: `n${index}`, label: `${kind.replace('_', ' ')} record number ${index}`, kind, depth: index <= first ? 1 : 2 });
  }
  const edges: Array<{ id: string; source: string; target: string; label: string }> = [];
  for (let index = 1; index <= first && index < size; index++) edges.push({ id: `e${edges.length}`, source: `n${index}`, target: 'n0', label: 'organizations' });
  for (let index = first + 1; index < size; index++) {
    const links = 1 + Math.floor(random() * 3);
    for (let link = 0; link < links; link++) edges.push({ id: `e${edges.length}`, source: `n${index}`, target: `n${1 + Math.floor(random() * first)}`, label: 'people' });
  }
  const rings = ringsOf(nodes);
  return {
    elements: [
      ...nodes.map((node) => ({ group: 'nodes', data: { ...node, ...kindLook(node.kind), ring: rings.get(node.id) }, classes: node.depth === 0 ? 'root' : node.depth === 1 ? 'expanded' : '' })),
      ...edges.map((edge) => ({ group: 'edges', data: edge })),
    ],
    edges: edges.length,
  };
}

interface Timings { first: number; pan: number[]; zoom: number[]; select: number }
interface Row { size: number; edges: number; timings: Timings; cpu: { first: number; pan: number; zoom: number } }

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))]!;
const ms = (value: number) => value.toFixed(1);

/** The page's script: builds the graph as GraphCanvas does, then times frames (strings: tsx's helpers are not in the page). */
const PAGE_SCRIPT = `
window.painted = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
window.nextRender = (cy) => new Promise((resolve) => { cy.one('render', () => resolve(performance.now())); setTimeout(() => resolve(NaN), 5000); });
window.build = async (elements, style, options, layout) => {
  const started = performance.now();
  const cy = window.cy = cytoscape({ container: document.getElementById('graph'), style, ...options });
  cy.add(elements);
  cy.layout({ ...layout, levelWidth: () => 1, concentric: (node) => ${RINGS_CENTRE} - Number(node.data('ring')) }).run();
  await window.painted();
  return performance.now() - started;
};
window.frames = async (what, count) => {
  const cy = window.cy;
  const times = [];
  for (let frame = 0; frame < count; frame++) {
    const rendered = window.nextRender(cy);
    const at = performance.now();
    if (what === 'pan') cy.panBy({ x: frame % 2 ? -15 : 15, y: 5 });
    else cy.zoom({ level: cy.zoom() * (frame % 2 ? 1 / 1.1 : 1.1), renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
    times.push((await rendered) - at);
  }
  return times;
};
window.selectOne = async () => {
  const cy = window.cy;
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const rendered = window.nextRender(cy);
  const at = performance.now();
  const node = cy.getElementById('n1');
  node.select();
  node.connectedEdges().addClass('focus');
  return (await rendered) - at;
};
`;

async function main() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--disable-gpu'] });
  const rows: Row[] = [];
  try {
    for (const size of SIZES) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.setContent('<div id="graph" style="width:900px;height:480px"></div>');
      await page.addScriptTag({ path: CYTOSCAPE });
      await page.addScriptTag({ content: PAGE_SCRIPT });
      // tsx keeps function names with a helper the page does not have.
      await page.evaluate('window.__name = (fn) => fn');
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable');
      /** The page's main thread CPU time so far, ms (load on the machine does not inflate it as it does wall time). */
      const cpu = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'ThreadTime')?.value ?? Number.NaN) * 1000;
      const { elements, edges } = neighbourhood(size);
      const c0 = await cpu();
      const first = await page.evaluate(([els, style, options, layout]) => (window as unknown as { build: (...args: unknown[]) => Promise<number> }).build(els, style, options, layout), [elements, GRAPH_STYLE, GRAPH_OPTIONS, RING_DATA] as const);
      const c1 = await cpu();
      const pan = await page.evaluate((count) => (window as unknown as { frames: (what: string, count: number) => Promise<number[]> }).frames('pan', count), FRAMES);
      const c2 = await cpu();
      const zoom = await page.evaluate((count) => (window as unknown as { frames: (what: string, count: number) => Promise<number[]> }).frames('zoom', count), FRAMES);
      const c3 = await cpu();
      const select = await page.evaluate(() => (window as unknown as { selectOne: () => Promise<number> }).selectOne());
      rows.push({ size, edges, timings: { first, pan, zoom, select }, cpu: { first: c1 - c0, pan: (c2 - c1) / FRAMES, zoom: (c3 - c2) / FRAMES } });
      await page.close();
    }
  } finally {
    await browser.close();
  }
  console.log(`Chromium: ${CHROMIUM} (no GPU), ${FRAMES} frames each; wall ms (median / p95) and the page's main-thread CPU ms`);
  console.log('');
  console.log('| nodes | edges | first render: wall / CPU | pan frame: wall median / p95 / CPU per frame | zoom frame: wall median / p95 / CPU per frame | select a node (full redraw) |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const { size, edges, timings, cpu } of rows) {
    console.log(`| ${size.toLocaleString('en')} | ${edges.toLocaleString('en')} | ${ms(timings.first)} / ${ms(cpu.first)} | ${ms(median(timings.pan))} / ${ms(p95(timings.pan))} / ${ms(cpu.pan)} | ${ms(median(timings.zoom))} / ${ms(p95(timings.zoom))} / ${ms(cpu.zoom)} | ${ms(timings.select)} |`);
  }
}

await main();
