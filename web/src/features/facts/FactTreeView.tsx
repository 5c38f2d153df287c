import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import LockIcon from '@mui/icons-material/LockOutlined';
import { Link as RouterLink } from 'react-router';
import { formatIncompleteDate } from '../../components/field-format';
import { composeIncompleteDate } from '../../components/IncompleteDateField';
import { VisibilityChip } from '../../components/VisibilityChip';
import type { FactRef, FactTree } from './facts.api';
import { FactText } from './FactText';
import { plainText } from './markdown';

/** An entity a fact mentions, as the reader filters by it. */
export interface EntityFilter {
  /** The reader's query parameter: keyword, organization, person or ledger_entry. */
  param: EntityParam;
  id: string;
  name: string;
}

export type EntityParam = 'keyword' | 'organization' | 'person' | 'ledger_entry';

/** The relations a fact mentions, with the reader's parameter and their name in words. */
export const ENTITY_FIELDS: ReadonlyArray<{ field: 'keywords' | 'organizations' | 'people' | 'ledger_entries'; param: EntityParam; label: string }> = [
  { field: 'keywords', param: 'keyword', label: 'Keyword' },
  { field: 'organizations', param: 'organization', label: 'Organization' },
  { field: 'people', param: 'person', label: 'Person' },
  { field: 'ledger_entries', param: 'ledger_entry', label: 'Ledger entry' },
];

/** Which facts are collapsed (their children hidden); shared by every tree of a page. */
interface Collapsing {
  collapsed: ReadonlySet<string>;
  toggle: (id: string) => void;
}

const CollapsingContext = createContext<Collapsing>({ collapsed: new Set(), toggle: () => undefined });

/** The collapsed facts of a page, with "expand all" and "collapse all" (given every fact that has children). */
export function useCollapsing() {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback((id: string) => {
    setCollapsed((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);
  const expandAll = useCallback(() => setCollapsed(new Set()), []);
  const collapseAll = useCallback((ids: string[]) => setCollapsed(new Set(ids)), []);
  const value = useMemo(() => ({ collapsed, toggle }), [collapsed, toggle]);
  return { value, expandAll, collapseAll, anyCollapsed: collapsed.size > 0 };
}

export function CollapsingProvider({ value, children }: { value: Collapsing; children: ReactNode }) {
  return <CollapsingContext.Provider value={value}>{children}</CollapsingContext.Provider>;
}

/** The ids of the facts that have children, in every tree given. */
export function parentIds(facts: FactTree[]): string[] {
  const out: string[] = [];
  const walk = (nodes: FactTree[]) => {
    for (const node of nodes) {
      if (node.children.length > 0) {
        out.push(node.id);
        walk(node.children);
      }
    }
  };
  walk(facts);
  return out;
}

/** How many facts the trees hold. */
export function factCount(facts: FactTree[]): number {
  return facts.reduce((sum, fact) => sum + 1 + factCount(fact.children), 0);
}

/** A day with flags for its unknown parts as the API's incomplete date ("2019", "2019-03", "--03-15"), in words. */
function partialDate(day: string | null | undefined, year: boolean | undefined, month: boolean | undefined, date: boolean | undefined): string | null {
  if (!day) return null;
  const [y = '', m = '', d = ''] = day.slice(0, 10).split('-');
  return formatIncompleteDate(composeIncompleteDate({ year: year ? '' : y, month: month ? '' : m, day: date ? '' : d })) || null;
}

/** "2019", "March 2019 – 2021", "until 2021", "from 2019": the date or period a fact is true for. */
export function periodText(fact: FactTree): string | null {
  const from = partialDate(fact.valid_from, fact.valid_from_incomplete_year, fact.valid_from_incomplete_month, fact.valid_from_incomplete_day);
  const to = partialDate(fact.valid_to, fact.valid_to_incomplete_year, fact.valid_to_incomplete_month, fact.valid_to_incomplete_day);
  if (from && to) return from === to ? from : `${from} – ${to}`;
  if (from) return `from ${from}`;
  if (to) return `until ${to}`;
  return null;
}

const refName = (ref: FactRef) => ref.display_name ?? 'Unnamed';

function Sources({ fact }: { fact: FactTree }) {
  const library = fact.sources_library ?? [];
  const urls = fact.source_urls ?? [];
  if (library.length === 0 && urls.length === 0) return null;
  const items: ReactNode[] = [
    ...library.map((entry) => (
      <Link key={`l-${entry.id}`} component={RouterLink} to={`/library/${encodeURIComponent(entry.id)}`}>
        {refName(entry)}
      </Link>
    )),
    ...urls.map((url) => (
      <Link key={`u-${url}`} href={url} target="_blank" rel="noopener noreferrer nofollow" sx={{ overflowWrap: 'anywhere' }}>
        {url.replace(/^https?:\/\//, '')}
      </Link>
    )),
  ];
  return (
    <Typography variant="caption" color="text.secondary" component="p" sx={{ m: 0 }} data-testid="fact-sources">
      Sources:{' '}
      {items.map((item, index) => (
        <span key={index}>
          {index > 0 && ' · '}
          {item}
        </span>
      ))}
    </Typography>
  );
}

function Mentions({ fact, onEntity }: { fact: FactTree; onEntity?: (entity: EntityFilter) => void }) {
  const chips = ENTITY_FIELDS.flatMap(({ field, param, label }) =>
    (fact[field] ?? []).map((ref) => ({ key: `${param}-${ref.id}`, param, label, id: ref.id, name: refName(ref) })),
  );
  if (chips.length === 0) return null;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }} data-testid="fact-mentions">
      {chips.map((chip) => (
        <Chip
          key={chip.key}
          size="small"
          variant="outlined"
          label={chip.name}
          title={onEntity ? `${chip.label}: show the facts that mention ${chip.name}` : chip.label}
          onClick={onEntity ? () => onEntity({ param: chip.param, id: chip.id, name: chip.name }) : undefined}
          sx={{ height: 22, '& .MuiChip-label': { px: 1 } }}
        />
      ))}
    </Box>
  );
}

interface TreeProps {
  facts: FactTree[];
  /** Makes the mention chips filter the page by their entity. */
  onEntity?: (entity: EntityFilter) => void;
  /** The accessible name of the outermost list. */
  label?: string;
  level?: number;
}

function FactNode({ fact, onEntity, level }: { fact: FactTree; onEntity?: (entity: EntityFilter) => void; level: number }) {
  const { collapsed, toggle } = useContext(CollapsingContext);
  const hasChildren = fact.children.length > 0;
  const open = !collapsed.has(fact.id);
  const childrenId = `fact-children-${fact.id}`;
  const period = periodText(fact);
  const locked = fact.locked_children ?? 0;
  return (
    <Box component="li" data-fact-id={fact.id} className="fact-node" sx={{ listStyle: 'none', breakInside: 'avoid-page' }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 0.5, py: 0.5 }}>
        {hasChildren ? (
          <IconButton
            size="small"
            aria-expanded={open}
            aria-controls={childrenId}
            aria-label={`${open ? 'Collapse' : 'Expand'}: ${plainText(fact.text).slice(0, 80)}`}
            onClick={() => toggle(fact.id)}
            className="fact-toggle"
            sx={{ mt: '-3px', p: '3px' }}
          >
            {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
          </IconButton>
        ) : (
          <Box aria-hidden="true" className="fact-bullet" sx={{ width: 26, flexShrink: 0, textAlign: 'center', color: 'primary.main', lineHeight: 1.5 }}>
            •
          </Box>
        )}
        <Box sx={{ minWidth: 0, flex: 1, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
          <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, flexWrap: 'wrap' }}>
            <Typography component="p" sx={{ m: 0, overflowWrap: 'anywhere', fontWeight: level === 1 && hasChildren ? 600 : undefined }} data-testid="fact-text">
              <FactText text={fact.text} />
              {period && (
                <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1, whiteSpace: 'nowrap' }}>
                  ({period})
                </Typography>
              )}
            </Typography>
            {fact.visibility !== 'public' && <VisibilityChip value={fact.visibility} />}
          </Box>
          <Mentions fact={fact} onEntity={onEntity} />
          <Sources fact={fact} />
          {locked > 0 && (
            <Typography variant="caption" color="text.secondary" component="p" sx={{ m: 0, display: 'flex', alignItems: 'center', gap: 0.5 }} data-testid="fact-locked">
              <LockIcon sx={{ fontSize: 14 }} aria-hidden="true" />
              {locked === 1 ? '1 more fact below is locked' : `${locked.toLocaleString('en-GB')} more facts below are locked`}
            </Typography>
          )}
        </Box>
      </Box>
      {hasChildren && (
        <Box id={childrenId} hidden={!open} className="fact-children" sx={{ pl: { xs: 2, sm: 3.5 } }}>
          <FactTreeList facts={fact.children} onEntity={onEntity} level={level + 1} />
        </Box>
      )}
    </Box>
  );
}

/** Facts as nested bullet lists, each with children collapsible, read-only. */
export function FactTreeList({ facts, onEntity, label, level = 1 }: TreeProps) {
  return (
    <Box component="ul" aria-label={label} sx={{ m: 0, p: 0 }} className="fact-tree">
      {facts.map((fact) => (
        <FactNode key={fact.id} fact={fact} onEntity={onEntity} level={level} />
      ))}
    </Box>
  );
}
