import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import Box from '@mui/material/Box';
import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';
import { GRAPH_OPTIONS, GRAPH_STYLE, kindLook, RING_LAYOUT, RINGS_CENTRE, ringsOf } from './graph-style';

/**
 * The drawn graph (cytoscape on a canvas). Loaded lazily by GraphSection, so only pages
 * showing a graph carry cytoscape. It keeps its own element set in step with the nodes and
 * edges it is given: the first set (or one after a change of kinds) is laid out by forces
 * (cose) or, past FORCE_LAYOUT_MOST records, in rings by steps from the root (ringsOf); records an expansion adds are placed in a ring around the record
 * expanded, so the rest of the picture stays where the reader left it.
 */
export interface CanvasNode {
  id: string;
  kind: string;
  label: string;
  depth: number;
  root: boolean;
  expanded: boolean;
}

export interface CanvasEdge {
  id: string;
  source: string;
  target: string;
  label: string;
}

export interface GraphCanvasHandle {
  fit(): void;
  zoomBy(factor: number): void;
}

interface GraphCanvasProps {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
  selectedId: string | null;
  /** The record whose neighbours were added last (new records go around it). */
  anchorId: string | null;
  onSelect(id: string | null): void;
  onOpen(id: string): void;
  label: string;
  ref?: Ref<GraphCanvasHandle>;
}

/** Graphs up to this many records are laid out by forces (cose); larger ones in rings (ringsOf), which cost little at 2,000. */
const FORCE_LAYOUT_MOST = 300;
/** The largest zoom a fit leaves a small graph at. */
const MOST_ZOOM_ON_FIT = 1.2;

const nodeData = (node: CanvasNode) => ({ id: node.id, label: node.label, kind: node.kind, depth: node.depth, ...kindLook(node.kind) });

export default function GraphCanvas({ nodes, edges, selectedId, anchorId, onSelect, onOpen, label, ref }: GraphCanvasProps) {
  const container = useRef<HTMLDivElement>(null);
  const cyRef = useRef<Core | null>(null);
  const handlers = useRef({ onSelect, onOpen });
  handlers.current = { onSelect, onOpen };

  useImperativeHandle(ref, () => ({
    fit: () => {
      if (cyRef.current) fitAll(cyRef.current);
    },
    zoomBy: (factor: number) => {
      const cy = cyRef.current;
      if (!cy) return;
      cy.zoom({ level: cy.zoom() * factor, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
    },
  }), []);

  useEffect(() => {
    const cy = cytoscape({ container: container.current, style: GRAPH_STYLE, ...GRAPH_OPTIONS });
    cyRef.current = cy;
    cy.on('tap', 'node', (event) => handlers.current.onSelect(event.target.id() as string));
    cy.on('dbltap', 'node', (event) => handlers.current.onOpen(event.target.id() as string));
    cy.on('tap', (event) => {
      if (event.target === cy) handlers.current.onSelect(null);
    });
    // A frame that changes size (a phone turned, a window resized) shows the whole graph again.
    let width = container.current?.clientWidth ?? 0;
    const resized = new ResizeObserver(() => {
      const now = container.current?.clientWidth ?? 0;
      if (now === width) return;
      width = now;
      cy.resize();
      fitAll(cy);
    });
    if (container.current) resized.observe(container.current);
    return () => {
      resized.disconnect();
      cy.destroy();
      cyRef.current = null;
    };
  }, []);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    const wanted = new Set([...nodes.map((node) => node.id), ...edges.map((edge) => edge.id)]);
    const stale = cy.elements().filter((element) => !wanted.has(element.id()));
    const fresh = cy.elements().length === 0 || stale.length > 0;
    const added: ElementDefinition[] = [];
    cy.batch(() => {
      stale.remove();
      for (const node of nodes) {
        const existing = cy.getElementById(node.id);
        if (existing.length === 0) added.push({ group: 'nodes', data: nodeData(node), classes: classesOf(node) });
        else existing.classes(classesOf(node));
      }
      for (const edge of edges) {
        if (cy.getElementById(edge.id).length === 0) added.push({ group: 'edges', data: { ...edge } });
      }
    });
    if (added.length === 0 && !fresh) return;
    const anchor = anchorId ? cy.getElementById(anchorId) : null;
    const elements = cy.add(added);
    if (fresh || !anchor || anchor.length === 0) {
      if (cy.nodes().length <= FORCE_LAYOUT_MOST) {
        // A force-directed picture: related records close, clusters apart.
        cy.layout({ name: 'cose', animate: false, fit: true, padding: 30, randomize: true, nodeRepulsion: () => 40_000, idealEdgeLength: () => 80, nodeOverlap: 20, componentSpacing: 80, numIter: 1500 }).run();
      } else {
        // Rings by steps from the root: cheap at 2,000 records, and round.
        const rings = ringsOf(cy.nodes().map((node) => ({ id: node.id(), depth: Number(node.data('depth')) })));
        cy.batch(() => cy.nodes().forEach((node) => void node.data('ring', rings.get(node.id()) ?? 0)));
        cy.layout({ ...RING_LAYOUT, concentric: (node) => RINGS_CENTRE - Number(node.data('ring')) }).run();
      }
      fitAll(cy);
    } else {
      // Around the record expanded: a ring wide enough for what arrived.
      const arrived = elements.nodes();
      const centre = anchor.position();
      const radius = Math.max(80, arrived.length * 7);
      arrived.forEach((node, index) => {
        const angle = (2 * Math.PI * index) / Math.max(arrived.length, 1);
        node.position({ x: centre.x + radius * Math.cos(angle), y: centre.y + radius * Math.sin(angle) });
      });
      if (!arrived.toArray().every((node) => inView(cy, node.renderedPosition()))) cy.animate({ fit: { eles: anchor.closedNeighborhood(), padding: 40 } }, { duration: 200 });
    }
    container.current?.setAttribute('data-nodes', String(cy.nodes().length));
    container.current?.setAttribute('data-edges', String(cy.edges().length));
  }, [nodes, edges, anchorId]);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    cy.batch(() => {
      cy.elements().unselect();
      cy.edges('.focus').removeClass('focus');
      if (selectedId) {
        const node = cy.getElementById(selectedId);
        node.select();
        node.connectedEdges().addClass('focus');
      }
    });
  }, [selectedId, nodes]);

  return (
    <Box
      ref={container}
      role="img"
      aria-label={label}
      data-testid="graph-canvas"
      sx={{ position: 'relative', width: '100%', height: '100%', minHeight: 320, bgcolor: '#fbfcfe', borderRadius: 1, border: 1, borderColor: 'divider', overflow: 'hidden' }}
    />
  );
}

/** The whole graph in the frame; a few records are not blown up to fill it. */
function fitAll(cy: Core): void {
  cy.fit(cy.elements(), 30);
  if (cy.zoom() > MOST_ZOOM_ON_FIT) {
    cy.zoom(MOST_ZOOM_ON_FIT);
    cy.center();
  }
}

function inView(cy: Core, at: { x: number; y: number }): boolean {
  return at.x >= 0 && at.y >= 0 && at.x <= cy.width() && at.y <= cy.height();
}

function classesOf(node: CanvasNode): string {
  return [node.root ? 'root' : '', node.expanded ? 'expanded' : ''].filter(Boolean).join(' ');
}
