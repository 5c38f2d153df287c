/**
 * Sign-in, token authentication and sign-out. Wrong email and wrong password
 * are indistinguishable (same status, message and work); failures are counted
 * per IP and per email in the database so every API process shares the limit.
 */
import type { Config } from '../config.ts';
import type { LoginResponse } from '../contracts.ts';
import type { Database } from '../db/client.ts';
import { ApiError, notAuthenticated, tooManyRequests } from '../http/errors.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { PUBLIC_PRINCIPAL, principalFor, type Principal } from './access.ts';
import { dummyPasswordHash, verifyPassword } from './passwords.ts';
import {
  clearFailures,
  findLiveSession,
  insertSession,
  recentFailures,
  recordFailure,
  revokeSession,
  type FailureWindow,
} from './sessions.repository.ts';
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

    const outcome = await this.db.withTenant(scope, async (tx) => {
      const windows = [
        await recentFailures(tx, 'ip', input.ip, windowSeconds),
        await recentFailures(tx, 'email', email, windowSeconds),
      ];
      const blocked = windows.filter((window) => window.count >= max);
      if (blocked.length > 0) return { kind: 'limited' as const, retryAfter: retryAfterSeconds(blocked, windowSeconds) };

      const user = await findUserByEmail(tx, email);
      const passwordOk = await verifyPassword(input.password, user?.password_hash ?? (await dummyPasswordHash));
      if (!user || !passwordOk) {
        await recordFailure(tx, tenant.id, [{ scope: 'ip', key: input.ip }, { scope: 'email', key: email }], windowSeconds);
        return { kind: 'invalid' as const };
      }
      if (user.disabled) return { kind: 'disabled' as const };

      await clearFailures(tx, 'email', email);
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

    // Thrown after the transaction so recorded failures are committed.
    if (outcome.kind === 'limited') throw tooManyRequests(outcome.retryAfter);
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

function retryAfterSeconds(blocked: FailureWindow[], windowSeconds: number): number {
  const waits = blocked.map((window) =>
    window.oldest ? Math.ceil((window.oldest.getTime() + windowSeconds * 1000 - Date.now()) / 1000) : windowSeconds,
  );
  return Math.max(1, ...waits);
}

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
