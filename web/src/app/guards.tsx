import { Navigate, Outlet, useLocation, type RouteObject } from 'react-router';
import { AccessDeniedPage } from '../components/AccessDeniedPage';
import { ALLOWED, useGroupAllowed, type LoginRedirectState, type RouteGroup } from '../lib/route-groups';
import { selectToken, useSessionSelector } from '../lib/session';

/** The guard route of a group: it carries the group in its handle, so a path's group can be looked up. */
export function guardedRoutes(group: RouteGroup, children: RouteObject[]): RouteObject {
  return { element: <RequireAccess group={group} />, handle: { group }, children };
}

/**
 * Layout route of a guarded group: signed-out visitors are sent to /login (and back after
 * signing in), signed-in users without the access see the access-denied page.
 */
export function RequireAccess({ group }: { group: RouteGroup }) {
  const location = useLocation();
  const signedIn = useSessionSelector(selectToken) !== null;
  const allowed = useGroupAllowed();

  if (!signedIn) {
    const state: LoginRedirectState = { from: `${location.pathname}${location.search}` };
    return <Navigate to="/login" replace state={state} />;
  }
  return allowed(group) ? <Outlet /> : <AccessDeniedPage allowed={ALLOWED[group]} />;
}
