/**
 * What every engine operation runs with: an open tenant transaction and the
 * actor it runs for. The engine never sees an HTTP request: a route builds
 * the actor from its request (http/engine-context.ts `actorOf`), a job or a
 * script with `systemActor`, and both open the transaction with `inTenant`
 * (a route through its request's `tx`). Validation, visibility, counters and
 * the audit log then apply alike to people and to machines.
 */
import { accessLevelOf } from '../auth/access.ts';
import type { AccessLevel } from '../contracts.ts';
import type { Database, Tx } from '../db/client.ts';
import { noteWrites } from './read-cache.ts';

/** A user as the audit log names them. */
export interface UserRef {
  id: string;
  email: string;
}

/** A user a system actor works for: their access level bounds what it sees and may write. */
export interface ActingUser extends UserRef {
  access: AccessLevel;
}

interface ActorBase {
  tenantId: string;
  /** What the actor reads and may write: visibility of rows, readable and writable fields. */
  access: AccessLevel;
  /** Admins of the default tenant may write the tenants table. */
  manageTenants?: boolean;
}

/** A person calling the API; `user` is null for a public (signed-out) reader. */
export interface UserActor extends ActorBase {
  kind: 'user';
  user: UserRef | null;
}

/** A job or a script; `onBehalfOf` names the user who caused the work, when one did. */
export interface SystemActor extends ActorBase {
  kind: 'system';
  onBehalfOf: UserRef | null;
}

export type Actor = UserActor | SystemActor;

export interface EngineContext {
  tx: Tx;
  actor: Actor;
  /** Set while a bulk action (or its undo) writes: its audit entries name the operation. */
  bulkOperationId?: string;
}

/** A user row as the user a system actor works for (their access level from their flags). */
export function actingUser(user: { id: string; email: string; is_admin: boolean; is_research: boolean }): ActingUser {
  return { id: user.id, email: user.email, access: accessLevelOf(user) };
}

/**
 * The actor of work no request is waiting for. On behalf of a user it reads
 * and writes as that user would (their access level); on its own it is an
 * admin of its tenant.
 */
export function systemActor(tenantId: string, onBehalfOf?: ActingUser | null): SystemActor {
  return {
    kind: 'system',
    tenantId,
    access: onBehalfOf?.access ?? 'admin',
    onBehalfOf: onBehalfOf ? { id: onBehalfOf.id, email: onBehalfOf.email } : null,
  };
}

/** The user rows point at as created_by/updated_by: the person, or the one a system actor works for. */
export function responsibleUser(actor: Actor): UserRef | null {
  return actor.kind === 'user' ? actor.user : actor.onBehalfOf;
}

export interface TransactionOptions {
  /** Stage the transaction's writes under this id, hidden until published (resources/staging.ts). */
  importStage?: string;
}

/** Runs `fn` in a transaction scoped to the actor's tenant (row-level security), without any request. */
export function inTenant<T>(db: Database, actor: Actor, fn: (ctx: EngineContext) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const context = { tenantId: actor.tenantId, manageTenants: actor.manageTenants ?? false, userId: responsibleUser(actor)?.id ?? null, ...options };
  return db.withTenant(context, async (tx) => {
    const result = await fn({ tx, actor });
    // Whatever wrote here (a job, a service), every process's read cache hears of it at commit.
    await noteWrites(tx, actor.tenantId);
    return result;
  });
}
