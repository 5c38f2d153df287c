import { createAction } from '@reduxjs/toolkit';
import { useSelector } from 'react-redux';
import type { AccessLevel, CurrentUser, LoginResponse } from '@intelnotes/server/contracts';

/**
 * What every layer may know of the session: its shape, the two events that start and end it,
 * and selectors. The state itself is owned by app/ (app/session.slice.ts keeps it, app/store.ts
 * persists it and reacts to its changes); shared code and features only read it here and
 * dispatch these events, so none of them imports app/.
 */

/** Where the store mounts the session state (app/store.ts). */
export const SESSION_KEY = 'session';

export type SessionUser = Pick<
  CurrentUser,
  'id' | 'email' | 'alias' | 'is_admin' | 'is_research' | 'asset_id' | 'tenant_id' | 'can_manage_tenants'
>;

export interface SessionState {
  token: string | null;
  email: string | null;
  alias: string | null;
  id: string | null;
  is_admin: boolean;
  is_research: boolean;
  asset_id: string | null;
  tenant_id: string | null;
  /** Admins of the default tenant may create and edit tenants (the Tenants menu entry, /clients). */
  can_manage_tenants: boolean;
}

/** Any store state that carries the session (the app's root state does). */
export type StateWithSession = { [SESSION_KEY]: SessionState };

/** Why the session ended: the user asked, or the API rejected the token. */
export type LogoutReason = 'user' | 'expired';

/** A user signed in (the login response). */
export const setSession = createAction<SessionUser & Pick<LoginResponse, 'token'>>('session/setSession');

/** The session ended: signed out, or the API rejected the token (SPEC §4). */
export const logout = createAction('session/logout', (reason: LogoutReason = 'user') => ({ payload: { reason } }));

export const selectSession = (state: StateWithSession): SessionState => state[SESSION_KEY];
export const selectToken = (state: StateWithSession): string | null => state[SESSION_KEY].token;

export function selectAccessLevel(state: StateWithSession): AccessLevel {
  const session = state[SESSION_KEY];
  if (session.token === null) return 'public';
  if (session.is_admin) return 'admin';
  if (session.is_research) return 'research';
  return 'paywall';
}

/** Research routes (SPEC §2) are open to research users and admins. */
export const selectCanResearch = ({ [SESSION_KEY]: session }: StateWithSession): boolean =>
  session.token !== null && (session.is_research || session.is_admin);

export const selectIsAdmin = ({ [SESSION_KEY]: session }: StateWithSession): boolean =>
  session.token !== null && session.is_admin;

// A session persisted before the flag existed has none until GET auth/me refreshes it.
export const selectCanManageTenants = ({ [SESSION_KEY]: session }: StateWithSession): boolean =>
  session.token !== null && session.can_manage_tenants === true;

/** useSelector over the session: the only part of the store screens read directly. */
export const useSessionSelector = useSelector.withTypes<StateWithSession>();
