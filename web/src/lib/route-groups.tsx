import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { selectCanManageTenants, selectCanResearch, selectIsAdmin, useSessionSelector } from './session';

/** The route groups of SPEC §2 above the public one (app/guards.tsx guards them). */
export type RouteGroup = 'research' | 'admin' | 'tenant-admin';

/** Who may open a group's pages, in words. */
export const ALLOWED: Record<RouteGroup, string> = {
  research: 'research and admin users',
  admin: 'admins',
  'tenant-admin': 'admins of the main intelnotes workspace, who manage tenants',
};

/** Where the login page returns to after signing in. */
export interface LoginRedirectState {
  from: string;
}

/** Whether the signed-in user may open a group's pages (nobody signed out may). */
export function useGroupAllowed(): (group: RouteGroup) => boolean {
  const canResearch = useSessionSelector(selectCanResearch);
  const isAdmin = useSessionSelector(selectIsAdmin);
  const canManageTenants = useSessionSelector(selectCanManageTenants);
  return useCallback(
    (group: RouteGroup) => (group === 'research' ? canResearch : group === 'admin' ? isAdmin : canManageTenants),
    [canResearch, isAdmin, canManageTenants],
  );
}

/** The group guarding a path ("/users/" → admin), or null for a public page; read from the router's routes. */
export function routeGroupOf(routes: RouteObject[], to: string): RouteGroup | null {
  const pathname = new URL(to, 'http://localhost').pathname;
  const matches = matchRoutes(routes, pathname) ?? [];
  for (const { route } of matches) {
    const group = (route.handle as { group?: RouteGroup } | undefined)?.group;
    if (group) return group;
  }
  return null;
}

const RouteGroupContext = createContext<(to: string) => RouteGroup | null>(() => null);

/** Gives the screens (the launcher) the router's answer to "which group guards this path?". */
export function RouteGroupProvider({ routes, children }: { routes: RouteObject[]; children: ReactNode }) {
  const groupOf = useCallback((to: string) => routeGroupOf(routes, to), [routes]);
  return <RouteGroupContext value={groupOf}>{children}</RouteGroupContext>;
}

/** The group guarding a path, as the router has it (null for public pages). */
export function useRouteGroup(): (to: string) => RouteGroup | null {
  return useContext(RouteGroupContext);
}
