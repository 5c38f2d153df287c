/**
 * Sign-in, token authentication and sign-out. Wrong email and wrong password
 * are indistinguishable (same status, message and work); tries are counted per
 * IP and per email in the database, in one atomic step, so every API process
 * shares the limit and concurrent tries cannot pass it together.
 */
import type { Config } from '../config.ts';
import type { LoginResponse } from '../contracts.ts';
import type { Database } from '../db/client.ts';
import { ApiError, notAuthenticated, tooManyRequests } from '../resources/errors.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { PUBLIC_PRINCIPAL, principalFor, type Principal } from './access.ts';
import { dummyPasswordHash, verifyPassword } from './passwords.ts';
import { clearLimit, findLiveSession, insertSession, releaseLimitSlot, revokeSession, takeLimitSlots, type LimitScope, type LimitSlot } from './sessions.repository.ts';
import { hashToken, newToken } from './tokens.ts';
import { findUserByEmail, touchLastLogin, type SessionUser } from './users.repository.ts';

export const INVALID_CREDENTIALS = 'Invalid email or password.';

export interface LoginInput {
  email: string;
  password: string;
  ip: string;
  userAgent: string | null;
}

export class AuthService {
  constructor(
    private readonly db: Database,
    private readonly config: Pick<Config, 'tokenTtlHours' | 'loginRateLimit'>,
  ) {}

  async login(tenant: TenantRow, input: LoginInput): Promise<LoginResponse> {
    const email = input.email.trim().toLowerCase();
    const { max, windowSeconds } = this.config.loginRateLimit;
    const scope = { tenantId: tenant.id };

    // The slot is taken in its own short transaction: the row lock that orders concurrent
    // tries is held for one statement, not for the password check.
    const keys = { ip: input.ip, email };
    const slots = await this.db.withTenant(scope, (tx) =>
      takeLimitSlots(tx, tenant.id, [{ scope: 'ip', key: keys.ip }, { scope: 'email', key: keys.email }], windowSeconds),
    );
    const blocked = slots.filter((slot) => slot.failures > max);
    if (blocked.length > 0) {
      // A refused try was never checked, so it is no failure: its slots are given back.
      await this.db.withTenant(scope, async (tx) => {
        for (const slot of slotsInLockOrder(slots)) await releaseLimitSlot(tx, slot, keys[slot.scope]);
      });
      throw tooManyRequests(Math.max(1, ...blocked.map((slot) => slot.retryAfter)));
    }

    const outcome = await this.db.withTenant(scope, async (tx) => {
      const user = await findUserByEmail(tx, email);
      const passwordOk = await verifyPassword(input.password, user?.password_hash ?? (await dummyPasswordHash));
      // A wrong email or password keeps its slot: that is the failure counted.
      if (!user || !passwordOk) return { kind: 'invalid' as const };
      await releaseLimitSlot(tx, slots.find((slot) => slot.scope === 'ip')!, keys.ip);
      await clearLimit(tx, 'email', email);
      if (user.disabled) return { kind: 'disabled' as const };

      await touchLastLogin(tx, tenant.id, user.id);
      const { token, hash } = newToken();
      const session = await insertSession(tx, {
        tenant_id: tenant.id,
        user_id: user.id,
        token_hash: hash,
        expires_at: new Date(Date.now() + this.config.tokenTtlHours * 3_600_000),
        user_agent: input.userAgent?.slice(0, 512) ?? null,
        ip: input.ip,
      });
      return { kind: 'ok' as const, token, user, expiresAt: session.expires_at };
    });

    if (outcome.kind === 'invalid') throw notAuthenticated(INVALID_CREDENTIALS);
    if (outcome.kind === 'disabled') {
      throw new ApiError(401, 'account_disabled', 'This account is disabled. Ask an administrator to enable it.');
    }
    return {
      token: outcome.token,
      expires_at: new Date(outcome.expiresAt).toISOString(),
      ...currentUser(outcome.user, tenant),
    };
  }

  /** Resolves a bearer token on this tenant; a token from another tenant is simply not found. */
  async authenticate(tenant: TenantRow, token: string): Promise<Principal> {
    const found = await findLiveSession(this.db.owner, tenant.id, hashToken(token));
    if (!found || found.user.disabled) throw notAuthenticated('Invalid or expired token.');
    return principalFor(found.user, found.sessionId, tenant.is_default);
  }

  async logout(tenant: TenantRow, principal: Principal): Promise<void> {
    if (principal === PUBLIC_PRINCIPAL || !principal.sessionId) return;
    const sessionId = principal.sessionId;
    await this.db.withTenant({ tenantId: tenant.id }, (tx) => revokeSession(tx, sessionId));
  }
}

/** Counter rows are locked ip first, then email, everywhere, so two tries never wait on each other in a cycle. */
const slotsInLockOrder = <S extends LimitScope>(slots: Array<LimitSlot<S>>) => [...slots].sort((a, b) => (a.scope === b.scope ? 0 : a.scope === 'ip' ? -1 : 1));

export function currentUser(user: SessionUser, tenant: TenantRow) {
  return {
    id: user.id,
    email: user.email,
    alias: user.alias,
    is_admin: user.is_admin,
    is_research: user.is_research,
    asset_id: user.asset_id,
    tenant_id: user.tenant_id,
    can_manage_tenants: user.is_admin && tenant.is_default,
  };
}
