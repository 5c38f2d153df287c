/**
 * Intelbooks (SPEC §2 facts, sections, categories; docs/intelbooks.md): sections and
 * categories are the reader's headings; a fact is a bullet-point statement in light Markdown,
 * nested under a parent into a tree of any depth, placed among its siblings, with its sources,
 * the entities it mentions and the period it is true for.
 *
 * The tree's rules live in the declaration's hooks, so every write keeps them — a request, the
 * move and reorder routes, bulk actions, spreadsheet imports, jobs:
 * - beforeSave (keepTree): under the tenant's tree lock, a parent is never the fact itself or
 *   one of its descendants; a root has a section; a child takes its root's section and
 *   category; a child is never more visible than its parent (an explicit visibility above it
 *   is a 400 naming `visibility`; a move under a less visible parent lowers the fact); a fact
 *   placed among new siblings without a position goes last.
 * - afterSave (carryDown): descendants follow the fact — a lowered visibility, a new section or
 *   category — in the same transaction, each with its own history entry.
 * - beforeDelete: the delete (of the fact and, by the `parent` relation's cascade, its subtree)
 *   takes the tree lock too.
 */
import { sql } from 'drizzle-orm';
import { query, type Tx } from '../../db/client.ts';
import { fieldError } from '../../resources/errors.ts';
import { writeAudit, type Changes } from '../../resources/audit.ts';
import { responsibleUser, type EngineContext } from '../../resources/context.ts';
import { incompleteDate, integer, markdown, relation, required, restricted, text, urls, visibility, type Visibility } from '../../resources/fields.ts';
import { uuidArray } from '../../resources/repository.ts';
import { defineResource, type AfterSaveContext, type DeleteContext, type SaveContext } from '../../resources/resource.ts';
import * as repo from './facts.repository.ts';

/** hidden < paywalled < public. */
export const VISIBILITY_RANK: Record<Visibility, number> = { hidden: 1, paywalled: 2, public: 3 };

/** Sections and categories: the reader's headings, for every audience; written by admins, not counted. */
function heading(kind: string, type: string, table: string, label: string, plural: string) {
  return defineResource({
    kind, type, path: `/facts/${table.slice('fact_'.length)}`, table, label, plural,
    summary: ['description'],
    writeAccess: 'admin',
    counterKinds: [],
    fields: {
      name: required(text({ max: 200 })),
      description: text({ max: 5000, multiline: true }),
      position: integer({ min: 0, max: 1_000_000 }),
    },
    ordering: ['position', 'name'],
    defaultOrdering: 'position,name',
    filters: [],
    identity: { names: ['name'] },
  });
}

export const factSections = heading('fact_section', 'FactSection', 'fact_sections', 'Section', 'Sections');
export const factCategories = heading('fact_category', 'FactCategory', 'fact_categories', 'Category', 'Categories');

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** beforeSave: the tree's rules for the fact as it will be (see the module comment). */
async function keepTree({ tx, tenantId, record, input, current }: SaveContext): Promise<Record<string, unknown>> {
  await repo.lockTree(tx, tenantId!);
  const extra: Record<string, unknown> = {};
  const parentId = str(record['parent']);
  const parentChanged = current === null || parentId !== str(current['parent']);
  let section = str(record['section']);
  if (parentId) {
    // Read under the lock: a parent deleted or moved meanwhile is seen as it is now.
    const parent = await repo.factNode(tx, parentId);
    if (!parent) throw fieldError('parent', `Unknown fact id ${parentId}.`);
    if (current && parentChanged && (await repo.isInSubtree(tx, current.id as string, parentId))) {
      throw fieldError('parent', 'A fact cannot be moved under itself or one of its own descendants.');
    }
    section = parent.section;
    extra['section'] = parent.section;
    extra['category'] = parent.category;
    const own = (str(record['visibility']) ?? 'hidden') as Visibility;
    if (VISIBILITY_RANK[own] > VISIBILITY_RANK[parent.visibility]) {
      if ('visibility' in input) throw fieldError('visibility', `A fact cannot be more visible than its parent, which is ${parent.visibility}.`);
      extra['visibility'] = parent.visibility;
    }
  } else if (!section) {
    throw fieldError('section', 'A top-level fact needs a section (a child takes its parent’s).');
  }
  const movedAmongRoots = !parentId && current !== null && section !== str(current['section']);
  const position = record['position'];
  if (position === null || position === undefined || ((parentChanged || movedAmongRoots) && !('position' in input))) {
    extra['position'] = await repo.nextPosition(tx, parentId, parentId ? null : section, current ? String(current['id']) : undefined);
  }
  return extra;
}

/** afterSave: the fact's descendants follow its visibility (never above it), section and category. */
async function carryDown(ctx: EngineContext, { row, current }: AfterSaveContext): Promise<void> {
  if (!current) return; // a new fact has no descendants yet
  const same = (name: string) => str(row[name]) === str(current[name]);
  if (same('visibility') && same('section') && same('category')) return;
  const changed = await repo.carryDown(ctx.tx, {
    id: row.id,
    visibility: row['visibility'] as Visibility,
    section: str(row['section']),
    category: str(row['category']),
  }, responsibleUser(ctx.actor)?.id ?? null);
  if (changed.length === 0) return;
  const names = await headingNames(ctx.tx, changed.flatMap((one) => [one.section_from, one.section_to, one.category_from, one.category_to]));
  const ref = (value: string | null) => (value === null ? null : { id: value, display_name: names.get(value) ?? null });
  for (const one of changed) {
    const changes: Changes = {};
    if (one.visibility_from !== one.visibility_to) changes['visibility'] = { from: one.visibility_from, to: one.visibility_to };
    if (one.section_from !== one.section_to) changes['section'] = { from: ref(one.section_from), to: ref(one.section_to) };
    if (one.category_from !== one.category_to) changes['category'] = { from: ref(one.category_from), to: ref(one.category_to) };
    await writeAudit(ctx.tx, {
      actor: ctx.actor, resource: 'facts', recordId: one.id, action: 'update', displayName: one.display_name, changes, bulkOperationId: ctx.bulkOperationId,
    });
  }
}

/** Names of sections and categories by id, for history entries. */
async function headingNames(tx: Tx, ids: Array<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((value): value is string => value !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await query<{ id: string; name: string }>(
    tx,
    sql`SELECT id, name FROM fact_sections WHERE id = ANY(${uuidArray(wanted)}) UNION ALL SELECT id, name FROM fact_categories WHERE id = ANY(${uuidArray(wanted)})`,
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}

async function lockForDelete({ tx, actor }: EngineContext, _context: DeleteContext): Promise<void> {
  await repo.lockTree(tx, actor.tenantId);
}

export const facts = defineResource({
  kind: 'facts',
  type: 'Fact',
  path: '/facts',
  table: 'facts',
  label: 'Fact',
  summary: ['section', 'visibility'],
  // Curated records: admins write them; research users read hidden ones like other records.
  writeAccess: 'admin',
  search: { fields: { text: 'A' } },
  fields: {
    text: required(markdown({ max: 5000 })),
    // Deleting a fact deletes its subtree (the engine's cascade, each with its history entry).
    parent: relation('facts', { many: false, onDelete: 'cascade', inverseLabel: 'Sub-facts' }),
    position: integer({ min: 0, max: 1_000_000 }),
    // A section with facts is not deleted (409): its facts would be left without a heading.
    section: relation('fact_section', { many: false, onDelete: 'restrict', inverseLabel: 'Facts' }),
    category: relation('fact_category', { many: false, inverseLabel: 'Facts' }),
    sources_library: relation('library', { inverseLabel: 'Facts citing it' }),
    // Raw data is research material: its references are for research users and admins.
    sources_raw_data: restricted(relation('raw_data', { inverseLabel: 'Facts citing it' }), { read: 'research' }),
    source_urls: urls(),
    organizations: relation('organizations', { inverseLabel: 'Facts' }),
    people: relation('people', { inverseLabel: 'Facts' }),
    ledger_entries: relation('ledger_entries', { inverseLabel: 'Facts' }),
    keywords: relation('keyword', { inverseLabel: 'Facts' }),
    valid_from: incompleteDate(),
    valid_to: incompleteDate(),
    visibility: visibility('hidden'),
  },
  ordering: ['position'],
  filters: ['parent', 'section', 'category', 'sources_library', 'organizations', 'people', 'ledger_entries', 'keywords'],
  headerAliases: { fact: 'text', statement: 'text', tags: 'keywords', from: 'valid_from', to: 'valid_to' },
  beforeSave: [keepTree],
  afterSave: [carryDown],
  beforeDelete: [lockForDelete],
});
