/**
 * The editor's tree moves, worked out from the trees as GET facts/view/ gives them: where a
 * keyboard move or a drop puts a fact, as the one call that does it (POST facts/reorder/ with
 * the siblings' new order, or POST facts/{id}/move/ with the new parent and position). Pure, so
 * the rules are tested without a browser (tree-ops.test.ts).
 *
 * Siblings: a fact's children, or a section's roots. The reader groups a section's roots by
 * category; those groups are what the editor shows as siblings (`shown`), while the server
 * orders all the roots of a section together (`siblings`), so a reorder sends all of them.
 */
import type { FactTree, ReaderSection } from './facts.api';

export interface Placement {
  id: string;
  parent: string | null;
  section: string;
  /** The category of the fact's root (children take their root's). */
  category: string | null;
  /** The siblings shown with it, in order (itself included). */
  shown: string[];
  /** Its siblings as the server orders them (itself included). */
  siblings: string[];
  children: string[];
}

export interface TreeIndex {
  facts: Map<string, Placement>;
  /** Each section's roots as the server orders them. */
  roots: Map<string, string[]>;
}

export type TreeChange =
  | { kind: 'reorder'; id: string; parent: string | null; section?: string; ids: string[] }
  | { kind: 'move'; id: string; parent: string | null; position: number; section?: string; category?: string | null };

export type KeyboardMove = 'up' | 'down' | 'indent' | 'outdent';
export type DropZone = 'before' | 'after' | 'inside';

export function indexTrees(sections: ReaderSection[]): TreeIndex {
  const facts = new Map<string, Placement>();
  const roots = new Map<string, string[]>();
  for (const section of sections) {
    const sectionRoots = section.categories.flatMap((category) => category.facts.map((fact) => fact.id));
    roots.set(section.id, sectionRoots);
    for (const category of section.categories) {
      const shown = category.facts.map((fact) => fact.id);
      const walk = (nodes: FactTree[], parent: string | null, shownHere: string[], siblings: string[]) => {
        for (const node of nodes) {
          const children = node.children.map((child) => child.id);
          facts.set(node.id, { id: node.id, parent, section: section.id, category: category.id, shown: shownHere, siblings, children });
          walk(node.children, node.id, children, children);
        }
      };
      walk(category.facts, null, shown, sectionRoots);
    }
  }
  return { facts, roots };
}

/** Whether `id` is `ancestor` or lies under it. */
export function isWithin(index: TreeIndex, id: string, ancestor: string): boolean {
  for (let current: string | null = id; current !== null; current = index.facts.get(current)?.parent ?? null) {
    if (current === ancestor) return true;
  }
  return false;
}

const without = (ids: string[], id: string) => ids.filter((entry) => entry !== id);

function reorder(place: Placement, ids: string[]): TreeChange | null {
  if (ids.join() === place.siblings.join()) return null;
  return { kind: 'reorder', id: place.id, parent: place.parent, ...(place.parent === null ? { section: place.section } : {}), ids };
}

/** Where Alt+Up/Down (reorder), Alt+Right (indent under the sibling above) and Alt+Left (outdent after its parent) put a fact; null when it cannot go that way. */
export function keyboardMove(index: TreeIndex, id: string, move: KeyboardMove): TreeChange | null {
  const place = index.facts.get(id);
  if (!place) return null;
  const at = place.shown.indexOf(id);
  const rest = without(place.siblings, id);
  switch (move) {
    case 'up': {
      const above = place.shown[at - 1];
      if (above === undefined) return null;
      return reorder(place, [...rest.slice(0, rest.indexOf(above)), id, ...rest.slice(rest.indexOf(above))]);
    }
    case 'down': {
      const below = place.shown[at + 1];
      if (below === undefined) return null;
      const after = rest.indexOf(below) + 1;
      return reorder(place, [...rest.slice(0, after), id, ...rest.slice(after)]);
    }
    case 'indent': {
      const above = place.shown[at - 1];
      if (above === undefined) return null;
      const newParent = index.facts.get(above);
      return { kind: 'move', id, parent: above, position: newParent ? newParent.children.length : 0 };
    }
    case 'outdent': {
      if (place.parent === null) return null;
      const parent = index.facts.get(place.parent);
      if (!parent) return null;
      const position = without(parent.siblings, id).indexOf(parent.id) + 1;
      return { kind: 'move', id, parent: parent.parent, position, ...(parent.parent === null ? { section: parent.section } : {}) };
    }
  }
}

/** Where a fact dropped on another goes: before or after it (its sibling), or inside it (its last child); null for a drop that changes nothing or is not allowed. */
export function dropMove(index: TreeIndex, id: string, targetId: string, zone: DropZone): TreeChange | null {
  const place = index.facts.get(id);
  const target = index.facts.get(targetId);
  if (!place || !target || isWithin(index, targetId, id)) return null;
  if (zone === 'inside') {
    const children = without(target.children, id);
    if (place.parent === targetId && target.children.at(-1) === id) return null;
    return { kind: 'move', id, parent: targetId, position: children.length };
  }
  const siblings = without(target.siblings, id);
  const position = siblings.indexOf(targetId) + (zone === 'after' ? 1 : 0);
  const category = target.parent === null && target.category !== place.category ? { category: target.category } : {};
  if (place.parent === target.parent && place.section === target.section && !('category' in category)) {
    if (place.siblings.indexOf(id) === position) return null;
    return reorder(place, [...siblings.slice(0, position), id, ...siblings.slice(position)]);
  }
  return { kind: 'move', id, parent: target.parent, position, ...(target.parent === null ? { section: target.section } : {}), ...category };
}

/** A fact dropped on a section's heading: the section's last root. */
export function sectionDrop(index: TreeIndex, id: string, section: string): TreeChange | null {
  const place = index.facts.get(id);
  if (!place) return null;
  const roots = without(index.roots.get(section) ?? [], id);
  if (place.parent === null && place.section === section && place.siblings.at(-1) === id) return null;
  return { kind: 'move', id, parent: null, position: roots.length, section };
}

/**
 * Applies a change to the trees as the server will (for the editor to show it at once, before
 * the server's answer): the fact leaves its siblings and joins its new ones at its position,
 * or the siblings take the new order. Mutates `sections` (an Immer draft of the cached reader);
 * false when it cannot tell where the fact goes (e.g. a section with no facts yet, which the
 * reader leaves out) — the refetch after the call shows it then.
 */
export function applyChange(sections: ReaderSection[], change: TreeChange): boolean {
  const found = locate(sections, change.id);
  if (!found) return false;
  if (change.kind === 'reorder') {
    const rank = new Map(change.ids.map((id, at) => [id, at]));
    const byRank = (a: FactTree, b: FactTree) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0);
    if (change.parent === null) for (const group of found.section.categories) group.facts.sort(byRank);
    else locate(sections, change.parent)?.node.children.sort(byRank);
    return true;
  }
  const parent = change.parent === null ? null : locate(sections, change.parent);
  const section = sections.find((entry) => entry.id === (change.section ?? found.section.id));
  if ((change.parent !== null && !parent) || (change.parent === null && !section)) return false;
  const category = change.category !== undefined ? change.category : found.category;
  const group = section ? (section.categories.find((entry) => entry.id === category) ?? addGroup(sections, section, category)) : undefined;
  found.list.splice(found.list.indexOf(found.node), 1);
  if (parent) {
    parent.node.children.splice(Math.min(change.position, parent.node.children.length), 0, found.node);
  } else if (section && group) {
    // The position counts every root of the section; the fact goes among those of its group.
    const before = section.categories.flatMap((entry) => entry.facts).slice(0, change.position);
    const at = before.filter((fact) => group.facts.includes(fact)).length;
    group.facts.splice(at, 0, found.node);
  }
  for (const entry of sections) entry.categories = entry.categories.filter((groupEntry) => groupEntry.facts.length > 0);
  return true;
}

/** A category's group in a section that had none of its facts (before the facts without a category). */
function addGroup(sections: ReaderSection[], section: ReaderSection, category: string | null): ReaderSection['categories'][number] {
  const known = sections.flatMap((entry) => entry.categories).find((entry) => entry.id === category);
  const group = { id: category, name: known?.name ?? null, description: known?.description ?? null, facts: [] };
  const last = section.categories.at(-1);
  if (category !== null && last?.id === null) section.categories.splice(section.categories.length - 1, 0, group);
  else section.categories.push(group);
  return group;
}

/** A fact in the trees: the node, the list that holds it, its section and its root's category. */
function locate(sections: ReaderSection[], id: string) {
  for (const section of sections) {
    for (const group of section.categories) {
      const walk = (list: FactTree[]): { node: FactTree; list: FactTree[] } | null => {
        for (const node of list) {
          if (node.id === id) return { node, list };
          const inner = walk(node.children);
          if (inner) return inner;
        }
        return null;
      };
      const hit = walk(group.facts);
      if (hit) return { ...hit, section, category: group.id };
    }
  }
  return null;
}
