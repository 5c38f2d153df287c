import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { logout, SESSION_KEY, setSession, type SessionState, type SessionUser } from '../lib/session';

/**
 * The session state (token and user flags), persisted by app/store.ts. Screens start and end
 * it with the events of lib/session.ts; only the store refreshes it (from GET auth/me).
 */

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
  name: SESSION_KEY,
  initialState,
  reducers: {
    /** Refreshes the stored flags from GET auth/me, for the same user only. */
    userRefreshed: (state, action: PayloadAction<SessionUser>) => {
      if (state.token === null || state.id !== action.payload.id) return state;
      return { token: state.token, ...userFields(action.payload) };
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(setSession, (_state, action) => ({ token: action.payload.token, ...userFields(action.payload) }))
      .addCase(logout, () => initialState);
  },
});

export const { userRefreshed } = sessionSlice.actions;
