/**
 * Merging duplicates (resources declared `mergeable`): a preview of both
 * records field by field, a merge that keeps a chosen value per field, moves
 * every reference (relations of other records, and whatever extensions keep:
 * list memberships, provenance) to the survivor and deletes the other record —
 * all in one transaction — and an undo that puts everything back from what the
 * merge recorded.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { MergePreview, MergeResult } from '../contracts.ts';
import { query, type Tx } from '../db/client.ts';
import { ApiError, badRequest, notFound } from './errors.ts';
import { diff, findAuditEntry, markUndone } from './audit.ts';
import { responsibleUser, type EngineContext } from './context.ts';
import { countReferences, moveReferences, restoreReferences, type MovedReference } from './relations.ts';
import type { Row } from './repository.ts';
import * as repo from './repository.ts';
import { isUuid, type ResourceService } from './service.ts';
import { reviewView, type ReviewStatus } from './resource.ts';
import { visibleTo } from './visibility.ts';

export type MergeChoice = 'survivor' | 'other' | 'both';

/**
 * What a merge recorded, so that it can be undone. Each extension's part is kept under its
 * name (merges recorded before extensions kept list memberships as `lists` at the top).
 */
interface MergeRecord {
  other: { id: string; row: Record<string, unknown> };
  survivorBefore: Record<string, unknown>;
  moved: MovedReference[];
  extensions?: Record<string, unknown>;
}

const id = (name: string) => sql.identifier(name);

/** A row as JSON (dates as text, arrays and numbers as JSON): what jsonb_populate_record can restore. */
async function snapshot(tx: Tx, table: string, rowId: string): Promise<Record<string, unknown>> {
  const [row] = await query<{ data: Record<string, unknown> }>(tx, sql`SELECT to_jsonb(t) AS data FROM ${id(table)} t WHERE id = ${rowId}`);
  return row!.data;
}

/** Columns that can be written back: not generated, not the tenant. */
async function restorableColumns(tx: Tx, table: string): Promise<string[]> {
  const rows = await query<{ column_name: string }>(
    tx,
    sql`SELECT column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ${table} AND is_generated = 'NEVER' AND column_name <> 'tenant_id'`,
  );
  return rows.map((row) => row.column_name);
}

const columnList = (columns: string[]): SQL => sql.join(columns.map(id), sql`, `);

/** A record of the pair was deleted, merged or reviewed by a concurrent transaction. */
const gone = (label: string) =>
  new ApiError(409, 'conflict', `The ${label.toLowerCase()} was just deleted, merged or reviewed by someone else; reload.`);

export class MergeService {
  constructor(readonly service: ResourceService) {}

  private get resource() {
    return this.service.resource;
  }

  private get extensions() {
    return this.service.catalog.extensions;
  }

  /**
   * The two records, as the caller may see them (404 otherwise). `others` finds the other
   * record: another view of the resource (a suggestion folded into a record). With `lock`
   * (a merge) both rows are locked for the rest of the transaction, in id order so that two
   * merges of overlapping pairs cannot deadlock; a row that a concurrent transaction deleted,
   * merged away or reviewed meanwhile is no longer there to lock: 409.
   */
  private async pair(
    { tx, actor }: EngineContext,
    survivorId: string,
    otherId: unknown,
    { others = this.service, lock = false }: { others?: ResourceService; lock?: boolean } = {},
  ): Promise<[Row, Row]> {
    if (typeof otherId !== 'string' || !isUuid(otherId)) throw badRequest('other: Must be the id of a record.', { other: ['Must be the id of a record.'] });
    if (otherId.toLowerCase() === survivorId.toLowerCase()) {
      throw badRequest('other: A record cannot be merged with itself.', { other: ['A record cannot be merged with itself.'] });
    }
    const survivor = await this.service.findVisible(tx, actor.access, survivorId);
    const other = await others.findVisible(tx, actor.access, otherId);
    if (!lock) return [survivor, other];
    const visible = visibleTo(actor.access);
    const locked = new Map<string, Row>();
    const views: Array<[Row, ResourceService]> = [[survivor, this.service], [other, others]];
    for (const [row, view] of views.sort(([a], [b]) => (a.id < b.id ? -1 : 1))) {
      const [current] = await repo.lockRows(tx, view.resource, visible, [row.id]);
      if (!current) throw gone(view.resource.label);
      locked.set(row.id, current);
    }
    return [locked.get(survivor.id)!, locked.get(other.id)!];
  }

  /** The fields a merge chooses between: the writable ones the writer may read. */
  private mergeFields(ctx: EngineContext): string[] {
    return this.service
      .readableFields(ctx.actor.access)
      .filter(([, field]) => field.kind !== 'object')
      .map(([name]) => name);
  }

  async preview(ctx: EngineContext, survivorId: string, otherId: unknown): Promise<MergePreview> {
    const { tx, actor } = ctx;
    const [survivorRow, otherRow] = await this.pair(ctx, survivorId, otherId);
    const [survivor, other] = await this.service.presentRows(tx, actor.access, [survivorRow, otherRow]);
    const fields = this.mergeFields(ctx).map((name) => ({
      name,
      survivor: survivor![name],
      other: other![name],
      differs: JSON.stringify(survivor![name]) !== JSON.stringify(other![name]),
    }));
    const references = await countReferences(tx, this.service.catalog, this.resource.kind, otherRow.id);
    for (const extension of this.extensions) {
      Object.assign(references, await extension.mergePreview?.(tx, { resource: this.resource, survivorId: survivorRow.id, otherId: otherRow.id }));
    }
    return { survivor: survivor!, other: other!, fields, references };
  }

  /**
   * Merges `other` into `survivor`. Per field the choice is whose value to
   * keep; by default the survivor's, or the other's when the survivor has
   * none, and for lists (emails, keywords, …) both.
   */
  async merge(ctx: EngineContext, survivorId: string, body: unknown, options: { others?: ResourceService } = {}): Promise<MergeResult> {
    this.service.assertMayWrite(ctx.actor);
    const input = (body ?? {}) as { other?: unknown; choices?: unknown };
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw badRequest('The request body must be a JSON object.', { non_field_errors: ['Expected a JSON object.'] });
    }
    const allowed = this.mergeFields(ctx);
    const choices = (input.choices ?? {}) as Record<string, unknown>;
    if (typeof choices !== 'object' || Array.isArray(choices)) throw badRequest('choices: Must be an object of field → choice.', { choices: ['Must be an object.'] });
    for (const [name, choice] of Object.entries(choices)) {
      if (!allowed.includes(name)) throw badRequest(`choices: Unknown field "${name}".`, { choices: [`Unknown field "${name}".`] });
      const multiple = this.resource.fields[name]!.multiple;
      if (choice !== 'survivor' && choice !== 'other' && !(multiple && choice === 'both')) {
        throw badRequest(`choices: ${name} must be survivor, other${multiple ? ' or both' : ''}.`, { choices: [`${name}: must be survivor, other${multiple ? ' or both' : ''}.`] });
      }
    }
    const { tx, actor } = ctx;
    const [survivorRow, otherRow] = await this.pair(ctx, survivorId, input.other, { ...options, lock: true });
    const [before, otherPresented] = await this.service.presentRows(tx, 'admin', [survivorRow, otherRow]);
    const record: MergeRecord = {
      other: { id: otherRow.id, row: await snapshot(tx, this.resource.table, otherRow.id) },
      survivorBefore: await snapshot(tx, this.resource.table, survivorRow.id),
      moved: [],
      extensions: {},
    };

    // The survivor's new values, taken field by field through the engine's own parsing.
    const values: Record<string, unknown> = {};
    for (const name of allowed) {
      const field = this.resource.fields[name]!;
      const mine = before![name];
      const theirs = otherPresented![name];
      const empty = (value: unknown) => value === null || value === '' || (Array.isArray(value) && value.length === 0);
      const choice = (choices[name] as MergeChoice | undefined) ?? (field.multiple ? 'both' : empty(mine) ? 'other' : 'survivor');
      if (choice === 'other') values[name] = theirs;
      else if (choice === 'both' && Array.isArray(mine) && Array.isArray(theirs)) values[name] = [...mine, ...theirs];
    }
    const parsed = this.service.parseInput(values, survivorRow, 'admin');

    // References first (other records, then what extensions keep), then the other record goes.
    record.moved = await moveReferences(tx, this.service.catalog, this.resource.kind, otherRow.id, survivorRow.id);
    const pair = { resource: this.resource, survivorId: survivorRow.id, otherId: otherRow.id };
    for (const extension of this.extensions) {
      if (extension.onMerge) record.extensions![extension.name] = await extension.onMerge(ctx, pair);
    }
    // Both rows are locked (pair): these only fail if that guarantee is ever lost.
    const others = options.others?.resource ?? this.resource;
    if (!(await repo.deleteRow(tx, others, otherRow.id))) throw gone(others.label);
    if (!(await repo.updateRow(tx, this.resource, survivorRow.id, { ...parsed.values, updated_by: responsibleUser(actor)?.id ?? null }))) throw gone(this.resource.label);

    const survivor = (await repo.selectOne(tx, this.resource, visibleTo('admin'), survivorRow.id))!;
    const after = (await this.service.presentRows(tx, 'admin', [survivor]))[0]!;
    const auditId = await this.service.audit(ctx, 'merge', survivorRow.id, after['display_name'], diff(before!, after), record);
    await this.service.audit(ctx, 'merge', otherRow.id, otherPresented!['display_name'], diff(otherPresented!, null), {
      other: { id: survivorRow.id },
      into: survivorRow.id,
    });
    return { record: (await this.service.presentRows(tx, actor.access, [survivor]))[0]!, audit_id: auditId };
  }

  /** Puts back what a merge changed: the other record, the survivor's values, references and list memberships. */
  async undo(ctx: EngineContext, auditId: string): Promise<{ survivor: Record<string, unknown>; other: Record<string, unknown> }> {
    const { tx, actor } = ctx;
    this.service.assertMayWrite(actor);
    const entry = isUuid(auditId) ? await findAuditEntry(tx, auditId) : null;
    const record = entry?.merge as MergeRecord | null | undefined;
    if (!entry || entry.resource !== this.resource.kind || entry.action !== 'merge' || !record?.survivorBefore) {
      throw notFound('Merge not found.');
    }
    if (entry.undone_at) throw new ApiError(409, 'conflict', 'This merge has already been undone.');
    const survivorId = entry.record_id;
    await this.service.findVisible(tx, actor.access, survivorId);
    const [later] = await query<{ n: number }>(
      tx,
      sql`SELECT count(*)::int AS n FROM audit_entries
          WHERE record_id = ${survivorId} AND id <> ${entry.id} AND at > (SELECT at FROM audit_entries WHERE id = ${entry.id})`,
    );
    if ((later?.n ?? 0) > 0) {
      throw new ApiError(409, 'conflict', 'The record was changed after the merge, so the merge can no longer be undone. Edit it by hand instead.');
    }
    const [taken] = await query<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM ${id(this.resource.table)} WHERE id = ${record.other.id}`);
    if ((taken?.n ?? 0) > 0) throw new ApiError(409, 'conflict', 'The merged record exists again; nothing to undo.');

    const table = this.resource.table;
    const columns = await restorableColumns(tx, table);
    const tenant = this.resource.shared ? [] : ['tenant_id'];
    const tenantValue = this.resource.shared ? sql`` : sql`${actor.tenantId}, `;
    await tx.execute(
      sql`INSERT INTO ${id(table)} (${columnList([...tenant, ...columns])})
          SELECT ${tenantValue}${columnList(columns)} FROM jsonb_populate_record(NULL::${id(table)}, ${JSON.stringify(record.other.row)}::jsonb)`,
    );
    const survivorColumns = columns.filter((column) => column !== 'id' && column !== 'created_at' && column !== 'created_by');
    await tx.execute(
      sql`UPDATE ${id(table)} SET (${columnList(survivorColumns)}) =
            (SELECT ${columnList(survivorColumns)} FROM jsonb_populate_record(NULL::${id(table)}, ${JSON.stringify(record.survivorBefore)}::jsonb))
          WHERE id = ${survivorId}`,
    );
    await restoreReferences(tx, this.service.catalog, record.moved, record.other.id, survivorId);
    const pair = { resource: this.resource, survivorId, otherId: record.other.id };
    const legacy = record as unknown as Record<string, unknown>;
    for (const extension of this.extensions) {
      const recorded = record.extensions ? record.extensions[extension.name] : legacy[extension.name];
      if (extension.undoMerge && recorded !== undefined) await extension.undoMerge(ctx, pair, recorded);
    }
    await markUndone(tx, entry.id);
    // The other record comes back as it was: a suggestion folded into a record is a suggestion again.
    const otherStatus = record.other.row['status'] as ReviewStatus | undefined;
    const others = this.resource.review && otherStatus && otherStatus !== this.resource.status ? reviewView(this.resource, otherStatus) : this.resource;
    const [survivorRow, otherRow] = [
      (await repo.selectOne(tx, this.resource, visibleTo('admin'), survivorId))!,
      (await repo.selectOne(tx, others, visibleTo('admin'), record.other.id))!,
    ];
    const [survivor, other] = await this.service.presentRows(tx, 'admin', [survivorRow, otherRow]);
    await this.service.audit(ctx, 'undo_merge', survivorId, survivor!['display_name'], {}, { other: { id: record.other.id }, merge: entry.id });
    await this.service.audit(ctx, 'undo_merge', record.other.id, other!['display_name'], diff(null, other!), { other: { id: survivorId }, merge: entry.id });
    return { survivor: (await this.service.presentRows(tx, actor.access, [survivorRow]))[0]!, other: (await this.service.presentRows(tx, actor.access, [otherRow]))[0]! };
  }
}
