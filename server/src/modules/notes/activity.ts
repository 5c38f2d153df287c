/**
 * A record's activity timeline (docs/notes.md): its notes, its edits from the audit log and the
 * suggestions accepted into it, merged newest first and paged, for research users and admins.
 *
 * Set-based: one statement pages the merged items (notes ∪ audit entries of the record, ordered
 * by time, counted in the same statement), then one statement per kind reads the page's items —
 * the notes through the notes' own service (presented as the reader sees them), the audit entries
 * by id, the accepted suggestions' sources from their provenance. Four statements a page, however
 * long the history.
 *
 * Edits show as the viewer may see them: a change of a field the viewer may not read (admin
 * notes for a research user) is left out of the entry, and an entry with nothing left to show
 * is shown as an edit without its fields (that something changed is no secret; what is).
 */
import { sql } from 'drizzle-orm';
import type { AccessLevel, AuditEntry } from '../../contracts.ts';
import { query, tenantPin, type Tx } from '../../db/client.ts';
import { presentAuditEntry, type AuditEntryRow } from '../../resources/audit.ts';
import type { EngineContext } from '../../resources/context.ts';
import type { ResultPage } from '../../resources/list-query.ts';
import type { Resource } from '../../resources/resource.ts';
import type { ResourceService } from '../../resources/service.ts';
import { mayReadField } from '../../resources/visibility.ts';

/** Where an accepted suggestion was found (its provenance), as the timeline shows it. */
export interface ActivitySource {
  source_kind: string;
  source_id: string | null;
  snippet: string;
}

export type ActivityItem =
  | { type: 'comment'; id: string; at: string; note: Record<string, unknown> }
  | { type: 'edit'; id: string; at: string; entry: AuditEntry }
  | { type: 'suggestion'; id: string; at: string; entry: AuditEntry; suggestion: { how: 'accepted' | 'merged'; sources: ActivitySource[] } };

interface PagedItem {
  type: 'comment' | 'edit' | 'suggestion';
  id: string;
  at: Date | string;
  total: string;
}

interface AuditRow extends AuditEntryRow {
  merged_id: string | null;
  moved_provenance: string[] | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * An audit entry "accepted a suggestion into the record": the suggestion itself accepted as
 * this record (status suggested → active), or a suggestion merged into it (accept with
 * link_to: the merged row's snapshot was a suggestion). Written as one SQL condition.
 */
const SUGGESTION_ACCEPTED = sql`(
  (a.action = 'update' AND a.changes -> 'status' ->> 'from' = 'suggested' AND a.changes -> 'status' ->> 'to' = 'active')
  OR (a.action = 'merge' AND a.merge -> 'other' -> 'row' ->> 'status' = 'suggested' AND a.undone_at IS NULL)
)`;

export class ActivityService {
  constructor(
    /** The notes' service (the engine's): notes are read and presented through it. */
    private readonly notes: ResourceService,
  ) {}

  /** GET {path}/{id}/activity/: the record's timeline, newest first; 404 when the reader may not see the record. */
  async timeline(ctx: EngineContext, records: ResourceService, recordId: string, paging: { limit: number; offset: number }): Promise<ResultPage<ActivityItem>> {
    const { tx, actor } = ctx;
    await records.findVisible(tx, actor.access, recordId);
    const resource = records.resource;
    const page = await query<PagedItem>(
      tx,
      sql`WITH items AS (
            SELECT 'comment'::text AS type, n.id, n.created_at AS at FROM notes n
            WHERE ${tenantPin(tx, 'n')} AND n.record = ${recordId}::uuid
            UNION ALL
            SELECT CASE WHEN ${SUGGESTION_ACCEPTED} THEN 'suggestion' ELSE 'edit' END, a.id, a.at FROM audit_entries a
            WHERE ${tenantPin(tx, 'a')} AND a.record_id = ${recordId}::uuid AND a.resource = ${resource.kind}
          )
          SELECT type, id::text AS id, at, count(*) OVER ()::text AS total FROM items
          ORDER BY at DESC, id DESC LIMIT ${paging.limit} OFFSET ${paging.offset}`,
    );
    const total = page.length > 0 ? Number(page[0]!.total) : await this.count(tx, resource, recordId);
    const noteIds = page.filter((item) => item.type === 'comment').map((item) => item.id);
    const auditIds = page.filter((item) => item.type !== 'comment').map((item) => item.id);
    const notes = await this.presentNotes(tx, actor.access, noteIds);
    const entries = await auditEntries(tx, auditIds);
    const sources = await acceptedSources(tx, resource.kind, recordId, [...entries.values()].filter((row) => page.some((item) => item.id === row.id && item.type === 'suggestion')));
    const results: ActivityItem[] = [];
    for (const item of page) {
      const at = iso(item.at)!;
      if (item.type === 'comment') {
        const note = notes.get(item.id);
        if (note) results.push({ type: 'comment', id: item.id, at, note });
        continue;
      }
      const row = entries.get(item.id);
      if (!row) continue;
      const entry = presentEntry(row, resource, actor.access);
      if (item.type === 'suggestion') {
        results.push({ type: 'suggestion', id: item.id, at, entry, suggestion: { how: row.action === 'merge' ? 'merged' : 'accepted', sources: sources.get(row.id) ?? [] } });
      } else {
        results.push({ type: 'edit', id: item.id, at, entry });
      }
    }
    return { count: total, offset: paging.offset, limit: paging.limit, results };
  }

  /** The total when the page read is empty (an offset past the end): the statement above carries it otherwise. */
  private async count(tx: Tx, resource: Resource, recordId: string): Promise<number> {
    const [row] = await query<{ n: string }>(
      tx,
      sql`SELECT ((SELECT count(*) FROM notes n WHERE ${tenantPin(tx, 'n')} AND n.record = ${recordId}::uuid)
                + (SELECT count(*) FROM audit_entries a WHERE ${tenantPin(tx, 'a')} AND a.record_id = ${recordId}::uuid AND a.resource = ${resource.kind}))::text AS n`,
    );
    return Number(row?.n ?? 0);
  }

  private async presentNotes(tx: Tx, access: AccessLevel, ids: string[]): Promise<Map<string, Record<string, unknown>>> {
    if (ids.length === 0) return new Map();
    const rows = await this.notes.findVisibleMany(tx, access, ids);
    const presented = await this.notes.presentRows(tx, access, [...rows.values()]);
    return new Map(presented.map((note) => [String(note['id']), note]));
  }
}

async function auditEntries(tx: Tx, ids: string[]): Promise<Map<string, AuditRow>> {
  if (ids.length === 0) return new Map();
  const rows = await query<AuditRow>(
    tx,
    sql`SELECT a.id::text AS id, a.action, a.at, a.actor, a.user_id::text AS user_id, a.user_email, a.on_behalf_of_id::text AS on_behalf_of_id,
               a.on_behalf_of_email, a.display_name, a.changes, a.merge -> 'other' ->> 'id' AS merged_id, a.undone_at,
               CASE WHEN jsonb_typeof(a.merge -> 'extensions' -> 'review') = 'array'
                    THEN ARRAY(SELECT jsonb_array_elements_text(a.merge -> 'extensions' -> 'review')) END AS moved_provenance
        FROM audit_entries a
        WHERE ${tenantPin(tx, 'a')} AND a.id = ANY(${`{${ids.join(',')}}`}::uuid[])`,
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The sources of the suggestions accepted into the record: for a suggestion accepted as the
 * record, the record's own provenance from before the acceptance; for one merged in, the
 * provenance the merge moved. One statement for the page's suggestion items.
 */
async function acceptedSources(tx: Tx, kind: string, recordId: string, rows: AuditRow[]): Promise<Map<string, ActivitySource[]>> {
  if (rows.length === 0) return new Map();
  const wanted = rows.map((row) => ({ id: row.id, at: iso(row.at), moved: row.action === 'merge' ? (row.moved_provenance ?? []) : null }));
  const found = await query<ActivitySource & { entry_id: string }>(
    tx,
    sql`SELECT w.id AS entry_id, p.source_kind, p.source_id::text AS source_id, p.snippet
        FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) AS w(id text, at timestamptz, moved jsonb)
        JOIN suggestion_provenance p ON ${tenantPin(tx, 'p')} AND p.resource = ${kind} AND p.record_id = ${recordId}::uuid
          AND (CASE WHEN w.moved IS NULL THEN p.created_at <= w.at ELSE w.moved ? p.id::text END)
        ORDER BY w.id, p.created_at, p.id`,
  );
  const sources = new Map<string, ActivitySource[]>();
  for (const { entry_id: entryId, ...source } of found) {
    const list = sources.get(entryId) ?? [];
    if (list.length < 10) list.push(source);
    sources.set(entryId, list);
  }
  return sources;
}

/** An audit entry as the viewer may see it: changes to fields they may not read are left out. */
function presentEntry(row: AuditRow, resource: Resource, access: AccessLevel): AuditEntry {
  const changes: AuditEntry['changes'] = {};
  for (const [name, change] of Object.entries(row.changes ?? {})) {
    const field = Object.hasOwn(resource.fields, name) ? resource.fields[name] : undefined;
    if (field && !mayReadField(field, access)) continue;
    changes[name] = change;
  }
  return presentAuditEntry(row, row.merged_id, changes);
}
