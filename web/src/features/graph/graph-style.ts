import type { CytoscapeOptions, StylesheetJson } from 'cytoscape';

/**
 * How the relationship graph is drawn (GraphCanvas.tsx), kept apart from React so the render
 * bench (bench/graph-render.ts) draws 2,000 nodes with exactly these options and styles.
 * Types only are imported here: cytoscape itself loads with the canvas, never with a page
 * that does not show a graph.
 */

/** Each kind's colour and shape (shape as well as colour, so kinds differ without colour vision). */
const KINDS: Record<string, { color: string; shape: string }> = {
  organizations: { color: '#1565c0', shape: 'round-rectangle' },
  people: { color: '#2e7d32', shape: 'ellipse' },
  ledger_entries: { color: '#e65100', shape: 'diamond' },
  library: { color: '#6a1b9a', shape: 'round-tag' },
  investments: { color: '#ad1457', shape: 'triangle' },
  keyword: { color: '#00838f', shape: 'hexagon' },
};
const OTHER = { color: '#546e7a', shape: 'pentagon' };

export const kindLook = (kind: string) => KINDS[kind] ?? OTHER;

/**
 * Responsive at 2,000 nodes (docs/BENCHMARKS.md "Relationship graph"): while panning or zooming
 * the canvas moves a texture of the last frame and leaves edges out; labels are drawn only
 * when they would be readable; haystack edges are the cheapest kind cytoscape draws.
 */
export const GRAPH_OPTIONS: Pick<CytoscapeOptions, 'minZoom' | 'maxZoom' | 'textureOnViewport' | 'hideEdgesOnViewport' | 'motionBlur' | 'pixelRatio' | 'boxSelectionEnabled' | 'selectionType'> = {
  minZoom: 0.02,
  maxZoom: 4,
  textureOnViewport: true,
  hideEdgesOnViewport: true,
  motionBlur: false,
  pixelRatio: 1,
  boxSelectionEnabled: false,
  selectionType: 'single',
};

export const GRAPH_STYLE: StylesheetJson = [
  {
    selector: 'node',
    style: {
      'background-color': 'data(color)',
      shape: 'data(shape)' as never,
      width: 18,
      height: 18,
      label: 'data(label)',
      'font-size': 11,
      'min-zoomed-font-size': 8,
      color: '#1f2933',
      'text-valign': 'bottom',
      'text-margin-y': 3,
      'text-max-width': '140px',
      'text-wrap': 'ellipsis',
      'text-background-color': '#ffffff',
      'text-background-opacity': 0.75,
      'text-background-padding': '1px',
    },
  },
  { selector: 'node.root', style: { width: 30, height: 30, 'border-width': 3, 'border-color': '#111827', 'font-weight': 'bold', 'font-size': 13 } },
  { selector: 'node.expanded', style: { 'border-width': 2, 'border-color': '#111827', 'border-style': 'double' } },
  { selector: 'node:selected', style: { 'overlay-color': '#ffb300', 'overlay-opacity': 0.45, 'overlay-padding': 7 } },
  { selector: 'edge', style: { width: 1.2, 'line-color': '#aab4c3', 'curve-style': 'haystack', 'haystack-radius': 0 } },
  {
    selector: 'edge.focus',
    style: { width: 2, 'line-color': '#4b5563', label: 'data(label)', 'font-size': 9, 'min-zoomed-font-size': 7, color: '#374151', 'text-rotation': 'autorotate', 'text-background-color': '#ffffff', 'text-background-opacity': 0.85 },
  },
];

/**
 * Rings for a large graph (concentric layout): the record alone in the middle, then its
 * neighbours by steps from it, ring after ring, each ring holding a few more than the one inside
 * it — about 13 rings at 2,000 records, so the picture is round rather than one huge ring. The
 * layout reads each node's `ring` (data) and puts lower rings inside.
 */
export function ringsOf(nodes: ReadonlyArray<{ id: string; depth: number }>): Map<string, number> {
  const rings = new Map<string, number>();
  const ordered = [...nodes].sort((a, b) => a.depth - b.depth);
  let ring = 0;
  let room = 1;
  let depth = ordered[0]?.depth ?? 0;
  for (const node of ordered) {
    // A new depth starts a new ring; so does a full one.
    if (room === 0 || node.depth !== depth) {
      ring += 1;
      room = 12 + 24 * ring;
      depth = node.depth;
    }
    rings.set(node.id, ring);
    room -= 1;
  }
  return rings;
}

/** The concentric layout's options for rings set by ringsOf (each node's `ring`), but its `concentric` function: `(node) => RINGS_CENTRE - ring`. */
export const RINGS_CENTRE = 100_000;
export const RING_LAYOUT = { name: 'concentric', levelWidth: () => 1, minNodeSpacing: 10, animate: false, fit: true, padding: 30 } as const;
