/**
 * How the relationship graph draws at 2,000 nodes: Debian's Chromium (playwright-core, no GPU)
 * draws a synthetic depth-2 neighbourhood with cytoscape and exactly the web app's options and
 * styles (web/src/features/graph/graph-style.ts) and layout (breadthfirst rings, as
 * GraphCanvas.tsx lays out a first answer), and times
 *
 * - the first render: from creating the graph (elements added, laid out) to the first frame painted;
 * - a pan frame and a zoom frame: from a viewport change to the next frame painted (cytoscape
 *   moves a texture of the last frame while the viewport changes: `textureOnViewport`), each
 *   BENCH_FRAMES times; and the full redraw once the viewport rests;
 * - a selection: a node selected (its edges highlighted, as a click does) to the frame painted.
 *
 *   node --import tsx bench/graph-render.ts [nodes…]      (default 500 2000 5000)
 *
 * Prints a Markdown table (docs/BENCHMARKS.md "Relationship graph").
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { GRAPH_OPTIONS, GRAPH_STYLE, kindLook } from '../web/src/features/graph/graph-style.ts';

const require = createRequire(import.meta.url);
const CYTOSCAPE = require.resolve('cytoscape/dist/cytoscape.min.js', { paths: [new URL('../web/', import.meta.url).pathname] });
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
const FRAMES = Number(process.env['BENCH_FRAMES'] ?? '30');
const SIZES = process.argv.slice(2).map(Number).filter((n) => n > 0);
if (SIZES.length === 0) SIZES.push(500, 2000, 5000);

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
  return {
    elements: [
      ...nodes.map((node) => ({ group: 'nodes', data: { ...node, ...kindLook(node.kind) }, classes: node.depth === 0 ? 'root' : node.depth === 1 ? 'expanded' : '' })),
      ...edges.map((edge) => ({ group: 'edges', data: edge })),
    ],
    edges: edges.length,
  };
}

interface Timings { first: number; pan: number[]; zoom: number[]; settle: number; select: number }

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))]!;
const ms = (value: number) => value.toFixed(1);

async function main() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--disable-gpu'] });
  const rows: string[] = [];
  try {
    for (const size of SIZES) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.setContent('<div id="graph" style="width:900px;height:480px"></div>');
      await page.addScriptTag({ path: CYTOSCAPE });
      const { elements, edges } = neighbourhood(size);
      const timings = await page.evaluate(async ({ elements, style, options, frames }) => {
        type Cy = {
          add(elements: unknown): void; layout(options: unknown): { run(): void }; one(event: string, fn: () => void): void; nodes(selector?: string): { length: number; map<T>(fn: (node: { id(): string }) => T): T[] } & Record<string, unknown>;
          panBy(by: { x: number; y: number }): void; zoom(): number; zoom(options: { level: number; renderedPosition: { x: number; y: number } }): void; width(): number; height(): number;
          getElementById(id: string): { select(): void; connectedEdges(): { addClass(name: string): void } };
        };
        const w = window as unknown as { cytoscape: (options: unknown) => Cy };
        /** Resolves after the next frame the browser paints following a change. */
        const painted = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
        const started = performance.now();
        const cy = w.cytoscape({ container: document.getElementById('graph'), style, ...options });
        cy.add(elements);
        const root = cy.nodes('.root').map((node) => node.id());
        cy.layout({ name: 'breadthfirst', circle: true, roots: root, spacingFactor: elements.length > 200 ? 0.6 : 1, avoidOverlap: false, animate: false, fit: true, padding: 30 }).run();
        await painted();
        const first = performance.now() - started;
        const pan: number[] = [];
        for (let frame = 0; frame < frames; frame++) {
          const at = performance.now();
          cy.panBy({ x: frame % 2 ? -15 : 15, y: 5 });
          await painted();
          pan.push(performance.now() - at);
        }
        const zoom: number[] = [];
        for (let frame = 0; frame < frames; frame++) {
          const at = performance.now();
          cy.zoom({ level: cy.zoom() * (frame % 2 ? 1 / 1.1 : 1.1), renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
          await painted();
          zoom.push(performance.now() - at);
        }
        // The full redraw (edges and labels back) once the viewport rests: cytoscape waits for the gesture to end.
        const rest = performance.now();
        await new Promise<void>((resolve) => {
          cy.one('render', () => resolve());
          setTimeout(resolve, 2000);
        });
        await painted();
        const settle = performance.now() - rest;
        const chosen = performance.now();
        const node = cy.getElementById('n1');
        node.select();
        node.connectedEdges().addClass('focus');
        await painted();
        const select = performance.now() - chosen;
        return { first, pan, zoom, settle, select };
      }, { elements, style: GRAPH_STYLE, options: GRAPH_OPTIONS, frames: FRAMES }) as Timings;
      rows.push(`| ${size.toLocaleString('en')} | ${edges.toLocaleString('en')} | ${ms(timings.first)} | ${ms(median(timings.pan))} / ${ms(p95(timings.pan))} | ${ms(median(timings.zoom))} / ${ms(p95(timings.zoom))} | ${ms(timings.settle)} | ${ms(timings.select)} |`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  console.log(`Chromium: ${CHROMIUM} (no GPU), ${FRAMES} frames each; times in ms (median / p95)\n`);
  console.log('| nodes | edges | first render | pan frame | zoom frame | full redraw at rest | select a node |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) console.log(row);
}

await main();
