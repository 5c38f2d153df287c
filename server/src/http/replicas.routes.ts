/**
 * GET tools/database-replicas/: each read replica's health, lag and reads as this API process
 * sees them (docs/scaling.md, "Read replicas"). For admins of the default tenant — the
 * installation's operators — only: replicas belong to the installation, not to a tenant, and
 * their host names and WAL positions are infrastructure details no tenant's admin needs.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { ErrorBody } from '../contracts.ts';
import type { ReplicaSet } from '../db/replicas.ts';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ReplicaStatusBody = Type.Object({
  name: Type.String({ description: 'host:port/database (never credentials)' }),
  health: Type.Union([Type.Literal('starting'), Type.Literal('healthy'), Type.Literal('lagging'), Type.Literal('unreachable'), Type.Literal('not_a_replica')]),
  lag_seconds: Nullable(Type.Number()),
  lag_bytes: Nullable(Type.Number()),
  replay_lsn: Nullable(Type.String()),
  checked_at: Nullable(Type.String({ format: 'date-time' })),
  last_error: Nullable(Type.String()),
  reads: Type.Integer(),
  failovers: Type.Integer({ description: 'reads handed to the primary after the replica failed under them' }),
});

export const ReplicasBody = Type.Object({
  enabled: Type.Boolean({ description: 'whether DATABASE_REPLICA_URLS names any replica' }),
  max_lag_seconds: Nullable(Type.Integer()),
  check_interval_ms: Nullable(Type.Integer()),
  primary_lsn: Nullable(Type.String()),
  primary_reads: Type.Integer({ description: 'read-only work sent to the primary: no fit replica, or the caller’s own write not replayed yet' }),
  replicas: Type.Array(ReplicaStatusBody),
});

export const replicasRoutes: FastifyPluginAsyncTypebox<{ replicas: ReplicaSet | null }> = async (app, { replicas }) => {
  app.get(
    '/tools/database-replicas/',
    {
      config: { access: 'manage-tenants' },
      schema: {
        tags: ['tools'],
        security: [{ bearer: [] }],
        summary: "Read replicas' health, lag and reads in this API process (admins of the default tenant)",
        response: { 200: ReplicasBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async () => {
      if (!replicas) return { enabled: false, max_lag_seconds: null, check_interval_ms: null, primary_lsn: null, primary_reads: 0, replicas: [] };
      return { enabled: true, ...replicas.status() };
    },
  );
};
