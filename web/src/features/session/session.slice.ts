import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AccessLevel, CurrentUser, LoginResponse } from '@intelnotes/server/contracts';

type SessionUser = Pick<
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

/** Why the session ended: the user asked, or the API rejected the token. */
export type LogoutReason = 'user' | 'expired';

const initialState: SessionState = {
  token: null,
  email: null,
  alias: null,
  id: null,
  is_admin: false,
  is_research: false,
  asset_id: null,
  tenant_id: null,
  can_manage_tenants: false,
};

// Copies only the session fields: the login response carries more (expiry) and
// everything kept here is persisted to local storage.
function userFields(user: SessionUser): Omit<SessionState, 'token'> {
  return {
    email: user.email,
    alias: user.alias,
    id: user.id,
    is_admin: user.is_admin,
    is_research: user.is_research,
    asset_id: user.asset_id,
    tenant_id: user.tenant_id,
    can_manage_tenants: user.can_manage_tenants,
  };
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    setSession: (_state, action: PayloadAction<SessionUser & Pick<LoginResponse, 'token'>>) => ({
      token: action.payload.token,
      ...userFields(action.payload),
    }),
    /** Refreshes the stored flags from GET auth/me, for the same user only. */
    userRefreshed: (state, action: PayloadAction<SessionUser>) => {
      if (state.token === null || state.id !== action.payload.id) return state;
      return { token: state.token, ...userFields(action.payload) };
    },
    logout: {
      reducer: () => initialState,
      prepare: (reason: LogoutReason = 'user') => ({ payload: { reason } }),
    },
  },
  selectors: {
    selectSession: (state) => state,
    selectToken: (state) => state.token,
    selectAccessLevel: (state): AccessLevel => {
      if (state.token === null) return 'public';
      if (state.is_admin) return 'admin';
      if (state.is_research) return 'research';
      return 'paywall';
    },
    /** Research routes (SPEC §2) are open to research users and admins. */
    selectCanResearch: (state) => state.token !== null && (state.is_research || state.is_admin),
    selectIsAdmin: (state) => state.token !== null && state.is_admin,
    // A session persisted before the flag existed has none until GET auth/me refreshes it.
    selectCanManageTenants: (state) => state.token !== null && state.can_manage_tenants === true,
  },
});

export const { setSession, userRefreshed, logout } = sessionSlice.actions;
export const {
  selectSession,
  selectToken,
  selectAccessLevel,
  selectCanResearch,
  selectIsAdmin,
  selectCanManageTenants,
} = sessionSlice.selectors;
