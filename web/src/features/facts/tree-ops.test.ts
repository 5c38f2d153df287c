// The editor's tree moves (features/facts/tree-ops.ts): keyboard moves and drops become the one
// reorder or move call that does them; moves into a fact's own subtree are never offered.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FactTree, ReaderSection } from './facts.api';
import { applyChange, dropMove, indexTrees, isWithin, keyboardMove, sectionDrop } from './tree-ops';

const fact = (id: string, children: FactTree[] = []): FactTree => ({
  id,
  text: id,
  visibility: 'public',
  position: 0,
  valid_from: null,
  valid_from_incomplete_day: false,
  valid_from_incomplete_month: false,
  valid_from_incomplete_year: false,
  valid_to: null,
  valid_to_incomplete_day: false,
  valid_to_incomplete_month: false,
  valid_to_incomplete_year: false,
  keywords: [],
  organizations: [],
  people: [],
  ledger_entries: [],
  sources_library: [],
  source_urls: [],
  locked_children: 0,
  children,
});

// Section s1: category c1 holds roots a (children a1, a2 (a21)) and b; no category holds root c.
// Section s2 holds root d.
const sections: ReaderSection[] = [
  {
    id: 's1',
    name: 'One',
    description: null,
    categories: [
      { id: 'c1', name: 'Cat', description: null, facts: [fact('a', [fact('a1'), fact('a2', [fact('a21')])]), fact('b')] },
      { id: null, name: '', description: null, facts: [fact('c')] },
    ],
  },
  { id: 's2', name: 'Two', description: null, categories: [{ id: null, name: '', description: null, facts: [fact('d')] }] },
];
const index = indexTrees(sections);

describe('editor tree moves', () => {
  it('reorders among the siblings shown, sending every root of the section', () => {
    assert.deepEqual(keyboardMove(index, 'b', 'up'), { kind: 'reorder', id: 'b', parent: null, section: 's1', ids: ['b', 'a', 'c'] });
    assert.deepEqual(keyboardMove(index, 'a1', 'down'), { kind: 'reorder', id: 'a1', parent: 'a', ids: ['a2', 'a1'] });
    // c is first in its own category group: nothing above it to pass.
    assert.equal(keyboardMove(index, 'c', 'up'), null);
    assert.equal(keyboardMove(index, 'a2', 'down'), null);
  });

  it('indents under the sibling above and outdents after the parent', () => {
    assert.deepEqual(keyboardMove(index, 'a2', 'indent'), { kind: 'move', id: 'a2', parent: 'a1', position: 0 });
    assert.deepEqual(keyboardMove(index, 'b', 'indent'), { kind: 'move', id: 'b', parent: 'a', position: 2 });
    assert.equal(keyboardMove(index, 'a1', 'indent'), null);
    assert.deepEqual(keyboardMove(index, 'a21', 'outdent'), { kind: 'move', id: 'a21', parent: 'a', position: 2 });
    assert.deepEqual(keyboardMove(index, 'a1', 'outdent'), { kind: 'move', id: 'a1', parent: null, position: 1, section: 's1' });
    assert.equal(keyboardMove(index, 'a', 'outdent'), null);
  });

  it('drops before, after and inside, across sections and categories', () => {
    assert.deepEqual(dropMove(index, 'a21', 'b', 'inside'), { kind: 'move', id: 'a21', parent: 'b', position: 0 });
    assert.deepEqual(dropMove(index, 'b', 'a1', 'after'), { kind: 'move', id: 'b', parent: 'a', position: 1 });
    assert.deepEqual(dropMove(index, 'a2', 'a1', 'before'), { kind: 'reorder', id: 'a2', parent: 'a', ids: ['a2', 'a1'] });
    assert.deepEqual(dropMove(index, 'd', 'a', 'before'), { kind: 'move', id: 'd', parent: null, position: 0, section: 's1', category: 'c1' });
    assert.deepEqual(dropMove(index, 'c', 'b', 'after'), { kind: 'move', id: 'c', parent: null, position: 2, section: 's1', category: 'c1' });
    assert.deepEqual(sectionDrop(index, 'a2', 's2'), { kind: 'move', id: 'a2', parent: null, position: 1, section: 's2' });
  });

  it('refuses a drop into the fact itself or its own subtree, and drops that change nothing', () => {
    assert.ok(isWithin(index, 'a21', 'a'));
    assert.equal(dropMove(index, 'a', 'a21', 'inside'), null);
    assert.equal(dropMove(index, 'a', 'a', 'after'), null);
    assert.equal(dropMove(index, 'a2', 'a', 'inside'), null);
    assert.equal(dropMove(index, 'a1', 'a2', 'before'), null);
    assert.equal(sectionDrop(index, 'c', 's1'), null);
  });
});

describe('editor tree changes shown before the answer', () => {
  const outline = (trees: ReaderSection[]) =>
    trees.map((section) => `${section.id}: ${section.categories.map((group) => `${group.id ?? '-'}[${group.facts.map(function show(node): string {
      return node.children.length > 0 ? `${node.id}(${node.children.map(show).join(' ')})` : node.id;
    }).join(' ')}]`).join(' ')}`);
  const fresh = () => structuredClone(sections);

  it('reorders, moves under a parent, out to the roots and across sections and categories', () => {
    let trees = fresh();
    assert.ok(applyChange(trees, keyboardMove(indexTrees(trees), 'b', 'up')!));
    assert.deepEqual(outline(trees), ['s1: c1[b a(a1 a2(a21))] -[c]', 's2: -[d]']);
    assert.ok(applyChange(trees, keyboardMove(indexTrees(trees), 'a21', 'outdent')!));
    assert.deepEqual(outline(trees), ['s1: c1[b a(a1 a2 a21)] -[c]', 's2: -[d]']);
    trees = fresh();
    assert.ok(applyChange(trees, dropMove(indexTrees(trees), 'c', 'b', 'after')!));
    assert.deepEqual(outline(trees), ['s1: c1[a(a1 a2(a21)) b c]', 's2: -[d]']);
    assert.ok(applyChange(trees, sectionDrop(indexTrees(trees), 'a2', 's2')!));
    // a2 keeps its category (c1) in the other section: a group of its own there, before the facts without one.
    assert.deepEqual(outline(trees), ['s1: c1[a(a1) b c]', 's2: c1[a2(a21)] -[d]']);
  });

  it('leaves to the refetch what it cannot place', () => {
    const trees = fresh();
    assert.equal(applyChange(trees, { kind: 'move', id: 'a', parent: null, position: 0, section: 'empty' }), false);
    assert.deepEqual(outline(trees), outline(sections));
  });
});
