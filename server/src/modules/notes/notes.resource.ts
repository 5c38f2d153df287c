/**
 * Notes (docs/notes.md): research users' and admins' comments on a record — an organization,
 * person, ledger entry or library entry — in light Markdown, with @mentions of teammates.
 * An engine resource at /api/v1/notes/, so validation, the audit log, OpenAPI, paging and the
 * `record` filter come from the declaration; what is particular to notes is in its hooks:
 *
 * - only the author edits a note; the author or an admin deletes it;
 * - `mentions` holds user ids of the tenant's research users and admins (anyone else is a 400
 *   naming the field), and each newly mentioned teammate gets a personal `note_mention` event;
 * - a note goes with its record (the relation's `onDelete: 'cascade'`) and follows it through
 *   a merge (the engine moves references).
 *
 * The kinds a note may be on are the relation's targets (NOTED_KINDS); the activity route
 * (notes.routes.ts) is registered for exactly those.
 */
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { query, type Tx } from '../../db/client.ts';
import { publish } from '../../events/bus.ts';
import type { AfterSaveContext, DeleteContext, SaveContext } from '../../resources/resource.ts';
import { responsibleUser, type EngineContext } from '../../resources/context.ts';
import { itemError, permissionDenied } from '../../resources/errors.ts';
import { markdown, relation, required, type FieldType } from '../../resources/fields.ts';
import { relatedRefs } from '../../resources/relations.ts';
import { defineResource } from '../../resources/resource.ts';
import { isUuid, itemFailure } from '../../resources/values.ts';

/** The kinds of record notes are kept on (the `record` relation's targets). */
export const NOTED_KINDS = ['organizations', 'people', 'ledger_entries', 'library', 'investments'] as const;

/** The most teammates one note may mention. */
export const MAX_MENTIONS = 50;

/** A list of user ids (teammates), stored as text[]; who they may be is checked on save (checkMentions). */
function userIds(max: number): FieldType {
  return {
    kind: 'strings',
    columns: (name) => [name],
    schema: Type.Array(Type.String({ format: 'uuid' }), { maxItems: max }),
    multiple: true,
    defaultValue: [],
    description: 'Ids of the teammates (research users and admins of this team) the note mentions',
    parse: (input, name) => {
      if (input === null) return { ok: true, value: { [name]: [] } };
      if (!Array.isArray(input)) return { ok: false, message: 'Must be a list of user ids.' };
      if (input.length > max) return { ok: false, message: `Ensure this list has no more than ${max} items.` };
      const ids: string[] = [];
      for (const [index, raw] of input.entries()) {
        const value = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as { id?: unknown }).id : raw;
        if (typeof value !== 'string' || !isUuid(value.trim())) return itemFailure(index, 'Must be a user id.');
        const id = value.trim().toLowerCase();
        if (!ids.includes(id)) ids.push(id);
      }
      return { ok: true, value: { [name]: ids } };
    },
    present: (row, name) => (row[name] as string[] | null) ?? [],
  };
}

/** A user of the tenant as a note shows them: author or mentioned teammate. */
export interface NoteUser {
  id: string;
  email: string;
  alias: string | null;
}

/** The tenant's research users and admins (not disabled) among `ids`. */
export async function teammatesAmong(tx: Tx, ids: string[]): Promise<NoteUser[]> {
  if (ids.length === 0) return [];
  return query<NoteUser>(
    tx,
    sql`SELECT id::text AS id, email, alias FROM users
        WHERE tenant_id = app_tenant_id() AND id = ANY(${`{${ids.join(',')}}`}::uuid[])
          AND (is_research OR is_admin) AND NOT disabled`,
  );
}

/** Users (any role) by id, for the names of authors and mentions already stored. */
async function usersAmong(tx: Tx, ids: string[]): Promise<Map<string, NoteUser>> {
  if (ids.length === 0) return new Map();
  const rows = await query<NoteUser>(
    tx,
    sql`SELECT id::text AS id, email, alias FROM users WHERE tenant_id = app_tenant_id() AND id = ANY(${`{${ids.join(',')}}`}::uuid[])`,
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** Only the author edits a note (an admin too may only delete another's). */
async function authorOnly({ actor, current }: SaveContext): Promise<void> {
  if (current && current['created_by'] !== (responsibleUser(actor)?.id ?? null)) {
    throw permissionDenied('Only its author may edit a note.');
  }
}

/**
 * Every new mention names a research user or admin of this tenant: anyone else is a 400 naming
 * the field. Mentions the note already holds stay allowed (a teammate disabled since then does
 * not stop the author from editing their note).
 */
async function checkMentions({ tx, input, current }: SaveContext): Promise<void> {
  if (!Array.isArray(input['mentions'])) return;
  const ids = input['mentions'] as string[];
  const kept = new Set((current?.['mentions'] as string[] | undefined) ?? []);
  const teammates = new Set((await teammatesAmong(tx, ids.filter((id) => !kept.has(id)))).map((user) => user.id));
  const index = ids.findIndex((id) => !kept.has(id) && !teammates.has(id));
  if (index >= 0) throw itemError('mentions', index, `${ids[index]} is not a teammate: mention research users and admins of this team.`);
}

/** The author or an admin deletes a note. */
async function authorOrAdmin(ctx: EngineContext, { row }: DeleteContext): Promise<void> {
  if (ctx.actor.access !== 'admin' && row['created_by'] !== (responsibleUser(ctx.actor)?.id ?? null)) {
    throw permissionDenied('Only its author or an admin may delete a note.');
  }
}

/**
 * Each teammate a write newly mentions gets a personal `note_mention` event (the author never
 * notifies themselves); an edit that keeps a mention does not notify again.
 */
async function notifyMentions(ctx: EngineContext, { catalog, resource, row, current }: AfterSaveContext): Promise<void> {
  const before = new Set((current?.['mentions'] as string[] | undefined) ?? []);
  const author = responsibleUser(ctx.actor);
  const recipients = ((row['mentions'] as string[] | null) ?? []).filter((id) => !before.has(id) && id !== author?.id);
  if (recipients.length === 0) return;
  const refs = await relatedRefs(ctx.tx, catalog, resource, 'admin', [row]);
  const record = refs.get(String(row['record']));
  if (!record) return;
  const createdAt = row['created_at'] instanceof Date ? row['created_at'].toISOString() : new Date(String(row['created_at'])).toISOString();
  for (const recipient of recipients) {
    await publish(ctx, 'note_mention', {
      id: row.id,
      record: { kind: record.kind, id: record.id, display_name: record.display_name === null ? null : record.display_name.slice(0, 300) },
      by: author?.email ?? null,
      created_at: createdAt,
    }, { recipient });
  }
}

export const notes = defineResource({
  kind: 'notes',
  type: 'Note',
  path: '/notes',
  table: 'notes',
  label: 'Note',
  summary: ['record'],
  readAccess: 'research',
  writeAccess: 'research',
  // Not one of SPEC §3's entity counts: no counter trigger; totals count the rows.
  counterKinds: [],
  // Written one at a time on a record page; no spreadsheet import.
  ownRoutes: ['upload'],
  fields: {
    record: relation([...NOTED_KINDS], { many: false, required: true, immutable: true, onDelete: 'cascade', backlinks: false }),
    body: required(markdown({ max: 10_000, required: true })),
    mentions: userIds(MAX_MENTIONS),
  },
  ordering: [],
  defaultOrdering: '-created_at',
  filters: ['record'],
  beforeSave: [authorOnly, checkMentions],
  afterSave: [notifyMentions],
  beforeDelete: [authorOrAdmin],
  annotate: {
    fields: ['author', 'mentioned'],
    values: async ({ tx, rows }) => {
      const ids = new Set<string>();
      for (const row of rows) {
        if (typeof row['created_by'] === 'string') ids.add(row['created_by']);
        for (const id of (row['mentions'] as string[] | null) ?? []) ids.add(id);
      }
      const users = await usersAmong(tx, [...ids]);
      return new Map(rows.map((row) => [row.id, {
        author: users.get(String(row['created_by'])) ?? null,
        mentioned: ((row['mentions'] as string[] | null) ?? []).map((id) => users.get(id)).filter((user) => user !== undefined),
      }]));
    },
  },
});
