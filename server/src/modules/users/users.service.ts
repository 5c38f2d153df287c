/**
 * The rules of user management: emails unique per tenant (ignoring case),
 * passwords of at least 10 characters, an admin never removes their own admin
 * access or disables themselves, and disabling a user or resetting their
 * password revokes their sessions. Users are disabled, never deleted: their
 * id stays on everything they created.
 */
import { hashPassword } from '../../auth/passwords.ts';
import { insertUser, type UserRow } from '../../auth/users.repository.ts';
import type { PasswordReset, User, UserInput, UserPatch } from '../../contracts.ts';
import type { Database } from '../../db/client.ts';
import { conflict, isUniqueViolation, notFound } from '../../resources/errors.ts';
import { FieldProblems, optionalText } from '../../http/input.ts';
import { inTenant, responsibleUser, type Actor } from '../../resources/context.ts';
import type { ResultPage } from '../../resources/list-query.ts';
import { isUuid } from '../../resources/service.ts';
import { parseEmail } from '../../resources/values.ts';
import * as repo from './users.repository.ts';

export const PASSWORD_MIN_LENGTH = 10;
const PASSWORD_MAX_LENGTH = 1024;
const ALIAS_MAX_LENGTH = 100;
const EMAIL_TAKEN = 'A user with this email already exists.';

/** A sign-in email: valid, stored in lower case (sign-in ignores case). */
export function checkEmail(problems: FieldProblems, field: string, value: string): string {
  const parsed = parseEmail(value);
  if (!parsed.ok) {
    problems.add(field, parsed.message);
    return '';
  }
  return parsed.value.toLowerCase();
}

export function checkPassword(problems: FieldProblems, field: string, value: string): string {
  const length = Array.from(value).length;
  if (length < PASSWORD_MIN_LENGTH) problems.add(field, `Use at least ${PASSWORD_MIN_LENGTH} characters.`);
  else if (length > PASSWORD_MAX_LENGTH) problems.add(field, `Use at most ${PASSWORD_MAX_LENGTH} characters.`);
  else if (value.trim() === '') problems.add(field, 'The password may not be only spaces.');
  return value;
}

export const emailTaken = (field = 'email') => conflict(EMAIL_TAKEN, { [field]: [EMAIL_TAKEN] });

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    alias: row.alias,
    is_admin: row.is_admin,
    is_research: row.is_research,
    disabled: row.disabled,
    last_login_at: iso(row.last_login_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

/**
 * A password is hashed between transactions (hashing is slow: no transaction, and on
 * PGlite no connection, waits for it), so each operation takes the actor and opens
 * its own transactions rather than running in the caller's.
 */
export class UsersService {
  constructor(private readonly db: Database) {}

  async list(actor: Actor, params: repo.UserListParams): Promise<ResultPage<User>> {
    const { rows, count } = await inTenant(this.db, actor, ({ tx }) => repo.listUsers(tx, params));
    return { count, offset: params.offset, limit: params.limit, results: rows.map(presentUser) };
  }

  async get(actor: Actor, userId: string): Promise<User> {
    return presentUser(await inTenant(this.db, actor, ({ tx }) => this.find(tx, userId)));
  }

  async create(actor: Actor, body: UserInput): Promise<User> {
    const problems = new FieldProblems();
    const email = body.email === undefined ? problems.missing('email') : checkEmail(problems, 'email', body.email);
    const alias = optionalText(problems, 'alias', body.alias ?? null, ALIAS_MAX_LENGTH);
    const password = body.password === undefined ? problems.missing('password') : checkPassword(problems, 'password', body.password);
    problems.throwIfAny();

    const passwordHash = await hashPassword(password);
    const tenantId = actor.tenantId;
    return this.guardEmail(async () => {
      const row = await inTenant(this.db, actor, async ({ tx }) => {
        if (await repo.findOtherUserByEmail(tx, email, null)) throw emailTaken();
        return insertUser(tx, {
          tenant_id: tenantId,
          email,
          alias,
          password_hash: passwordHash,
          is_admin: body.is_admin ?? false,
          is_research: body.is_research ?? false,
        });
      });
      return presentUser(row);
    });
  }

  async update(actor: Actor, userId: string, body: UserPatch): Promise<User> {
    const problems = new FieldProblems();
    const changes: repo.UserChanges = {};
    if (body.email !== undefined) changes.email = checkEmail(problems, 'email', body.email);
    if (body.alias !== undefined) changes.alias = optionalText(problems, 'alias', body.alias, ALIAS_MAX_LENGTH);
    if (body.is_research !== undefined) changes.is_research = body.is_research;
    if (body.is_admin !== undefined) changes.is_admin = body.is_admin;
    if (body.disabled !== undefined) changes.disabled = body.disabled;
    // The caller keeps a way back in: no admin can lock themselves out.
    const self = responsibleUser(actor)?.id === userId;
    if (self && body.is_admin === false) problems.add('is_admin', 'You cannot remove your own admin access.');
    if (self && body.disabled === true) problems.add('disabled', 'You cannot disable your own account.');

    return this.guardEmail(() =>
      inTenant(this.db, actor, async ({ tx }) => {
        const current = await this.find(tx, userId);
        problems.throwIfAny();
        if (changes.email !== undefined && (await repo.findOtherUserByEmail(tx, changes.email, userId))) throw emailTaken();
        if (Object.keys(changes).length === 0) return presentUser(current);
        const row = await repo.updateUser(tx, userId, changes);
        if (changes.disabled === true) await repo.revokeUserSessions(tx, userId);
        return presentUser(row);
      }),
    );
  }

  /**
   * Sets a password chosen by an admin and signs the user out everywhere;
   * admins resetting their own password stay signed in on the session they
   * do it from (`currentSessionId`).
   */
  async resetPassword(actor: Actor, userId: string, body: PasswordReset, currentSessionId: string | null): Promise<void> {
    const problems = new FieldProblems();
    const password = checkPassword(problems, 'password', body.password);
    await inTenant(this.db, actor, ({ tx }) => this.find(tx, userId));
    problems.throwIfAny();
    const passwordHash = await hashPassword(password);
    const keep = responsibleUser(actor)?.id === userId ? currentSessionId : null;
    await inTenant(this.db, actor, async ({ tx }) => {
      await this.find(tx, userId);
      await repo.setPasswordHash(tx, userId, passwordHash);
      await repo.revokeUserSessions(tx, userId, keep);
    });
  }

  private async find(tx: Parameters<typeof repo.findUserById>[0], userId: string): Promise<UserRow> {
    const row = isUuid(userId) ? await repo.findUserById(tx, userId) : null;
    if (!row) throw notFound('User not found.');
    return row;
  }

  /** Two requests racing for one email: the unique index decides, and the loser gets the same 409. */
  private async guardEmail<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
  }
}
