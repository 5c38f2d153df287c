/**
 * What notes add beside the engine's own routes of the `notes` resource (docs/notes.md):
 *
 * - `GET notes/teammates/`: whom a note may mention — the tenant's research users and admins;
 * - `GET {path}/{id}/activity/` for every kind a note may be on (the `record` relation's
 *   targets): the record's timeline of notes, edits and accepted suggestions, newest first.
 *
 * Research users and admins only, like the notes themselves.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ActivityPage, ErrorBody, Teammates, type NoteUser } from '../../contracts.ts';
import { query } from '../../db/client.ts';
import { withContext } from '../../http/engine-context.ts';
import { limitOffsetParams } from '../../http/list-params.ts';
import { pageOf } from '../../http/pages.ts';
import { parsePaging } from '../../resources/list-query.ts';
import type { ResourceServices } from '../../resources/services.ts';
import { ActivityService } from './activity.ts';
import { notes } from './notes.resource.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
export const ACTIVITY_DEFAULT_LIMIT = 20;
const ACTIVITY_MAX_LIMIT = 100;

export async function notesRoutes(app: FastifyInstance, { services }: { services: ResourceServices }): Promise<void> {
  const activity = new ActivityService(services.get(notes.kind));

  app.get('/notes/teammates/', {
    config: { access: 'research' },
    schema: {
      tags: ['notes'],
      summary: 'The research users and admins of this team: whom a note may mention',
      querystring: Type.Object({}, { additionalProperties: false }),
      response: { 200: Teammates, ...errors },
    },
  }, async (request) => withContext(request, async ({ tx }) => ({
    results: await query<NoteUser>(
      tx,
      sql`SELECT id::text AS id, email, alias FROM users
          WHERE tenant_id = app_tenant_id() AND (is_research OR is_admin) AND NOT disabled
          ORDER BY lower(coalesce(alias, email)), id LIMIT 1000`,
    ),
  })));

  for (const kind of notes.fields['record']!.relation!.targets) {
    const records = services.get(kind);
    app.get<{ Params: { id: string }; Querystring: { limit?: number; offset?: number } }>(`${records.resource.path}/:id/activity/`, {
      config: { access: 'research' },
      schema: {
        tags: [records.resource.kind],
        summary: `The ${records.resource.label.toLowerCase()}'s activity: notes, edits (fields the reader may not read left out) and suggestions accepted into it, newest first (research users and admins)`,
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        querystring: Type.Object(limitOffsetParams({ defaultLimit: ACTIVITY_DEFAULT_LIMIT, maxLimit: ACTIVITY_MAX_LIMIT, per: 'Items per page' }), { additionalProperties: false }),
        response: { 200: ActivityPage, ...errors },
      },
    }, async (request) => {
      const paging = parsePaging(request.query, { defaultLimit: ACTIVITY_DEFAULT_LIMIT, maxLimit: ACTIVITY_MAX_LIMIT });
      return pageOf(request, await withContext(request, (ctx) => activity.timeline(ctx, records, request.params.id, paging)));
    });
  }
}
