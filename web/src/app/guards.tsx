import { Navigate, Outlet, useLocation } from 'react-router';
import { AccessDeniedPage } from '../components/AccessDeniedPage';
import {
  selectCanManageTenants,
  selectCanResearch,
  selectIsAdmin,
  selectToken,
} from '../features/session/session.slice';
import { useAppSelector } from './hooks';

/** The route groups of SPEC §2 above the public one. */
export type RouteGroup = 'research' | 'admin' | 'tenant-admin';

const ALLOWED: Record<RouteGroup, string> = {
  research: 'research and admin users',
  admin: 'admins',
  'tenant-admin': 'admins of the main intelnotes workspace, who manage tenants',
};

/** Where the login page returns to after signing in. */
export interface LoginRedirectState {
  from: string;
}

/**
 * Layout route of a guarded group: signed-out visitors are sent to /login (and back after
 * signing in), signed-in users without the access see the access-denied page.
 */
export function RequireAccess({ group }: { group: RouteGroup }) {
  const location = useLocation();
  const signedIn = useAppSelector(selectToken) !== null;
  const canResearch = useAppSelector(selectCanResearch);
  const isAdmin = useAppSelector(selectIsAdmin);
  const canManageTenants = useAppSelector(selectCanManageTenants);

  if (!signedIn) {
    const state: LoginRedirectState = { from: `${location.pathname}${location.search}` };
    return <Navigate to="/login" replace state={state} />;
  }
  const allowed = group === 'research' ? canResearch : group === 'admin' ? isAdmin : canManageTenants;
  return allowed ? <Outlet /> : <AccessDeniedPage allowed={ALLOWED[group]} />;
}
