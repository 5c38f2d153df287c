/**
 * Who the caller is and what they may do: the four audiences of SPEC §6 and
 * the "manage tenants" capability, checked by one guard for every route.
 */
import { ACCESS_LEVELS, type AccessLevel } from '../contracts.ts';
import { notAuthenticated, permissionDenied } from '../resources/errors.ts';
import type { SessionUser } from './users.repository.ts';

export interface Principal {
  user: SessionUser | null;
  sessionId: string | null;
  access: AccessLevel;
  /** Admins of the default tenant create, edit and delete tenants. */
  canManageTenants: boolean;
}

export const PUBLIC_PRINCIPAL: Principal = { user: null, sessionId: null, access: 'public', canManageTenants: false };

export function accessLevelOf(user: Pick<SessionUser, 'is_admin' | 'is_research'>): AccessLevel {
  if (user.is_admin) return 'admin';
  if (user.is_research) return 'research';
  return 'paywall';
}

export function principalFor(user: SessionUser, sessionId: string, tenantIsDefault: boolean): Principal {
  const access = accessLevelOf(user);
  return { user, sessionId, access, canManageTenants: access === 'admin' && tenantIsDefault };
}

/** A route's requirement: a minimum access level or a capability. */
export type Requirement = AccessLevel | 'manage-tenants';

export const atLeast = (access: AccessLevel, minimum: AccessLevel) =>
  ACCESS_LEVELS.indexOf(access) >= ACCESS_LEVELS.indexOf(minimum);

/** Throws 401 when sign-in is needed and missing, 403 when it is not enough. */
export function authorize(principal: Principal, requirement: Requirement): void {
  if (requirement === 'public') return;
  if (!principal.user) throw notAuthenticated();
  const allowed = requirement === 'manage-tenants' ? principal.canManageTenants : atLeast(principal.access, requirement);
  if (!allowed) throw permissionDenied();
}
