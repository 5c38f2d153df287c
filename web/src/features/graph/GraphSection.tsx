import { lazy, Suspense, useCallback, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ZoomInIcon from '@mui/icons-material/ZoomIn';
import ZoomOutIcon from '@mui/icons-material/ZoomOut';
import FitScreenIcon from '@mui/icons-material/FitScreen';
import { skipToken } from '@reduxjs/toolkit/query';
import { Link as RouterLink, useNavigate } from 'react-router';
import { apiErrorMessage, type ApiError } from '../../api/api-error';
import { useResourceMeta } from '../../api/resources';
import { notify } from '../../components/notify';
import { recordHref } from '../../components/record-links';
import { RetryAlert } from '../../components/RetryAlert';
import type { CanvasEdge, CanvasNode, GraphCanvasHandle } from './GraphCanvas';
import { useLazyRelationGraphQuery, useRelationGraphQuery, type RelationGraph, type RelationGraphKind } from './graph.api';
import { kindLook } from './graph-style';

/** cytoscape comes with the canvas, only when a graph is shown. */
const GraphCanvas = lazy(() => import('./GraphCanvas'));

/** Records asked for with the first graph, and the most the page keeps as records are expanded. */
const FIRST_LIMIT = 500;
const MOST_NODES = 2_000;

/** What expansions added to the first answer: records, relations, and which records were expanded. */
interface Added {
  nodes: Map<string, CanvasNode>;
  edges: Map<string, CanvasEdge>;
  expanded: Set<string>;
}
const nothingAdded = (): Added => ({ nodes: new Map(), edges: new Map(), expanded: new Set() });
const edgeId = (edge: { source: string; target: string; field: string }) => `${edge.source}|${edge.field}|${edge.target}`;

/**
 * A record's relationship graph (issue 28 item 3): its neighbours the reader may see to depth 2
 * (GET {path}/{id}/graph/, built by the server with the reader's visibility). Click a record to
 * select it and add its own neighbours; double-click (or Open) goes to its page; the chips
 * choose the kinds shown. Put on organization, person, ledger entry and library entry pages
 * by app/record-sections.tsx.
 */
export function GraphSection({ kind, id }: { kind: string; id: string }) {
  const { meta } = useResourceMeta(kind);
  const navigate = useNavigate();
  const [kinds, setKinds] = useState<string[] | undefined>(undefined);
  const first = useRelationGraphQuery(meta ? { path: meta.path, id, depth: 2, kinds, limit: FIRST_LIMIT } : skipToken, { refetchOnMountOrArgChange: true });
  const [fetchNeighbours] = useLazyRelationGraphQuery();
  const [added, setAdded] = useState<{ base: RelationGraph | undefined; value: Added }>({ base: undefined, value: nothingAdded() });
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [anchorId, setAnchorId] = useState<string | null>(null);
  const [expanding, setExpanding] = useState<string | null>(null);
  const [listed, setListed] = useState(false);
  const canvas = useRef<GraphCanvasHandle>(null);

  const graph = first.data;
  // A new first answer (other kinds, a write elsewhere) starts the expansions afresh.
  const extra = added.base === graph ? added.value : nothingAdded();

  const { nodes, edges } = useMemo(() => {
    const byId = new Map<string, CanvasNode>();
    const lines = new Map<string, CanvasEdge>();
    if (!graph) return { nodes: [], edges: [] };
    for (const node of graph.nodes) {
      byId.set(node.id, { id: node.id, kind: node.kind, label: node.display_name ?? '(no name)', depth: node.depth, root: node.depth === 0, expanded: node.depth < graph.depth || extra.expanded.has(node.id) });
    }
    for (const node of extra.nodes.values()) if (!byId.has(node.id)) byId.set(node.id, { ...node, expanded: extra.expanded.has(node.id) });
    for (const edge of graph.edges) lines.set(edgeId(edge), { id: edgeId(edge), source: edge.source, target: edge.target, label: edge.label });
    for (const edge of extra.edges.values()) if (byId.has(edge.source) && byId.has(edge.target)) lines.set(edge.id, edge);
    return { nodes: [...byId.values()], edges: [...lines.values()] };
  }, [graph, extra]);

  const kindOf = useMemo(() => new Map((graph?.kinds ?? []).map((entry) => [entry.kind, entry])), [graph]);
  const selected = nodes.find((node) => node.id === selectedId) ?? null;

  const expand = useCallback(async (node: CanvasNode) => {
    const path = kindOf.get(node.kind)?.path;
    if (!graph || !path || node.expanded) return;
    if (nodes.length >= MOST_NODES) {
      notify.info(`The graph shows ${MOST_NODES.toLocaleString('en')} records, the most it holds: open a record to see its own graph.`);
      return;
    }
    setExpanding(node.id);
    try {
      const selectedKinds = graph.kinds.filter((entry) => entry.selected).map((entry) => entry.kind);
      const answer = await fetchNeighbours({ path, id: node.id, depth: 1, kinds: selectedKinds, limit: Math.min(FIRST_LIMIT, MOST_NODES - nodes.length + 1) }).unwrap();
      setAdded((current) => {
        const value = current.base === graph ? current.value : nothingAdded();
        const next: Added = { nodes: new Map(value.nodes), edges: new Map(value.edges), expanded: new Set(value.expanded).add(node.id) };
        for (const found of answer.nodes) {
          if (found.id === node.id) continue;
          if (!next.nodes.has(found.id)) next.nodes.set(found.id, { id: found.id, kind: found.kind, label: found.display_name ?? '(no name)', depth: node.depth + found.depth, root: false, expanded: false });
        }
        for (const edge of answer.edges) next.edges.set(edgeId(edge), { id: edgeId(edge), source: edge.source, target: edge.target, label: edge.label });
        return { base: graph, value: next };
      });
      setAnchorId(node.id);
      if (answer.truncated) notify.info(`Only the first ${answer.limit.toLocaleString('en')} records linked to ${node.label} are shown.`);
    } catch (error) {
      notify.error(apiErrorMessage(error as ApiError));
    } finally {
      setExpanding(null);
    }
  }, [fetchNeighbours, graph, kindOf, nodes.length]);

  const onSelect = useCallback((nodeId: string | null) => {
    setSelectedId(nodeId);
    const node = nodes.find((one) => one.id === nodeId);
    if (node && !node.expanded) void expand(node);
  }, [expand, nodes]);

  const onOpen = useCallback((nodeId: string) => {
    const node = nodes.find((one) => one.id === nodeId);
    const href = node ? recordHref(node.kind, { id: node.id }) : null;
    if (href) void navigate(href);
  }, [navigate, nodes]);

  const toggleKind = (entry: RelationGraphKind) => {
    const current = (graph?.kinds ?? []).filter((one) => one.selected).map((one) => one.kind);
    setKinds(entry.selected ? current.filter((one) => one !== entry.kind) : [...current, entry.kind]);
    setSelectedId(null);
    setAnchorId(null);
  };

  const title = 'Relationship graph';
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="h6" component="h2" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        <Stack direction="row" spacing={0.5}>
          <Tooltip title="Zoom in">
            <IconButton aria-label="Zoom in" size="small" onClick={() => canvas.current?.zoomBy(1.25)}><ZoomInIcon fontSize="small" /></IconButton>
          </Tooltip>
          <Tooltip title="Zoom out">
            <IconButton aria-label="Zoom out" size="small" onClick={() => canvas.current?.zoomBy(0.8)}><ZoomOutIcon fontSize="small" /></IconButton>
          </Tooltip>
          <Tooltip title="Fit the graph">
            <IconButton aria-label="Fit the graph" size="small" onClick={() => canvas.current?.fit()}><FitScreenIcon fontSize="small" /></IconButton>
          </Tooltip>
        </Stack>
      </Stack>
      {graph && (
        <Box role="group" aria-label="Kinds shown" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75, mb: 1.5 }}>
          {graph.kinds.map((entry) => (
            <Chip
              key={entry.kind}
              size="small"
              label={entry.plural}
              variant={entry.selected ? 'filled' : 'outlined'}
              aria-pressed={entry.selected}
              onClick={() => toggleKind(entry)}
              sx={entry.selected ? { bgcolor: kindLook(entry.kind).color, color: '#fff', '&:hover': { bgcolor: kindLook(entry.kind).color, opacity: 0.9 } } : undefined}
            />
          ))}
        </Box>
      )}
      {first.error ? (
        <RetryAlert onRetry={() => void first.refetch()}>{apiErrorMessage(first.error as ApiError)}</RetryAlert>
      ) : !graph ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}><CircularProgress aria-label="Loading the graph" /></Box>
      ) : (
        <>
          <Box sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, gap: 2 }}>
            <Box sx={{ flex: 1, minWidth: 0, height: { xs: 360, md: 480 } }}>
              <Suspense fallback={<Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}><CircularProgress aria-label="Loading the graph" /></Box>}>
                <GraphCanvas
                  ref={canvas}
                  nodes={nodes}
                  edges={edges}
                  selectedId={selectedId}
                  anchorId={anchorId}
                  onSelect={onSelect}
                  onOpen={onOpen}
                  label={`Graph of ${nodes.length} records and ${edges.length} relations`}
                />
              </Suspense>
            </Box>
            <Box component="aside" aria-label="Selected record" sx={{ width: { md: 260 }, flexShrink: 0 }}>
              <SelectedPanel node={selected} kind={selected ? kindOf.get(selected.kind) : undefined} relations={selected ? edges.filter((edge) => edge.source === selected.id || edge.target === selected.id).length : 0} expanding={expanding !== null && expanding === selected?.id} onExpand={(node) => void expand(node)} />
            </Box>
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="graph-summary">
            {nodes.length} {nodes.length === 1 ? 'record' : 'records'} · {edges.length} {edges.length === 1 ? 'relation' : 'relations'}
          </Typography>
          {graph.truncated && <Alert severity="info" sx={{ mt: 1 }}>Only the first {graph.limit.toLocaleString('en')} records are shown.</Alert>}
          <Button size="small" sx={{ mt: 0.5, px: 0 }} aria-expanded={listed} onClick={() => setListed((open) => !open)}>
            {listed ? 'Hide the list' : 'List the records'}
          </Button>
          {listed && (
            <Box component="ul" aria-label="Records in the graph" sx={{ m: 0, pl: 2.5, columns: { sm: 2, md: 3 }, typography: 'body2' }}>
              {nodes.map((node) => {
                const href = recordHref(node.kind, { id: node.id });
                return (
                  <li key={node.id}>
                    {href ? <Link component={RouterLink} to={href}>{node.label}</Link> : node.label} <Typography component="span" variant="caption" color="text.secondary">{kindOf.get(node.kind)?.label ?? node.kind}</Typography>
                  </li>
                );
              })}
            </Box>
          )}
        </>
      )}
    </Paper>
  );
}

function SelectedPanel({ node, kind, relations, expanding, onExpand }: { node: CanvasNode | null; kind: RelationGraphKind | undefined; relations: number; expanding: boolean; onExpand: (node: CanvasNode) => void }) {
  if (!node) {
    return (
      <Typography variant="body2" color="text.secondary">
        Click a record to select it and show its neighbours; double-click to open it. Drag to move the picture, scroll to zoom.
      </Typography>
    );
  }
  const href = recordHref(node.kind, { id: node.id });
  return (
    <Stack spacing={1} data-testid="graph-selected">
      <Typography variant="overline" sx={{ lineHeight: 1.4, color: kindLook(node.kind).color, fontWeight: 700 }}>{kind?.label ?? node.kind}</Typography>
      <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{node.label}</Typography>
      <Typography variant="body2" color="text.secondary">
        {relations} {relations === 1 ? 'relation' : 'relations'} shown{node.root ? ' · this record' : ''}
      </Typography>
      <Stack direction="row" spacing={1}>
        {href ? (
          <Button component={RouterLink} to={href} variant="contained" size="small">Open</Button>
        ) : (
          <Typography variant="body2" color="text.secondary">No page of its own.</Typography>
        )}
        {!node.expanded && (
          <Button size="small" variant="outlined" disabled={expanding} onClick={() => onExpand(node)}>
            {expanding ? 'Loading…' : 'Show neighbours'}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}
