import LinearProgress from '@mui/material/LinearProgress';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';
import { RouteErrorPage } from '../components/RouteErrorPage';
import { LoginPage } from '../features/auth/LoginPage';
import { cagrPublicRoutes } from '../features/cagr/routes';
import { checkoutPublicRoutes } from '../features/checkout/routes';
import { geosPublicRoutes, geosTenantAdminRoutes, loadGeosTable } from '../features/geos/routes';
import { factsAdminRoutes, factsPublicRoutes } from '../features/facts/routes';
import { HomePage } from '../features/home/HomePage';
import { keywordsPublicRoutes, keywordsResearchRoutes } from '../features/keywords/routes';
import { ledgerPublicRoutes, ledgerResearchRoutes } from '../features/ledger/routes';
import { libraryPublicRoutes, libraryResearchRoutes } from '../features/library/routes';
import { listsPublicRoutes, listsResearchRoutes } from '../features/lists/routes';
import { MenuPage } from '../features/menu/MenuPage';
import { clientsTenantAdminRoutes } from '../features/clients/routes';
import { emailsPublicRoutes, emailsResearchRoutes } from '../features/emails/routes';
import { organizationsPublicRoutes, organizationsResearchRoutes } from '../features/organizations/routes';
import { peoplePublicRoutes, peopleResearchRoutes } from '../features/people/routes';
import { rawDataResearchRoutes } from '../features/rawdata/routes';
import { SearchPage } from '../features/search/SearchPage';
import { taggingRulesResearchRoutes } from '../features/taggingrules/routes';
import { terminologyPublicRoutes, terminologyResearchRoutes } from '../features/terminology/routes';
import { urlsResearchRoutes } from '../features/urls/routes';
import { settingsAdminRoutes } from '../features/settings/routes';
import { usersAdminRoutes } from '../features/users/routes';
import { guardedRoutes } from './guards';
import { RootLayout } from './layout/RootLayout';

/** SPEC §2 "Public routes". */
const publicRoutes: RouteObject[] = [
  { index: true, element: <HomePage /> },
  { path: 'login', element: <LoginPage /> },
  { path: 'menu', element: <MenuPage /> },
  { path: 'search', element: <SearchPage /> },
  { path: 'operator', element: <Navigate to="/search?tab=1" replace /> },
  ...organizationsPublicRoutes,
  ...peoplePublicRoutes,
  { path: 'organizations/subquery', lazy: async () => ({ Component: (await import('../features/search/operator/OrganizationsSubqueryPage')).OrganizationsSubqueryPage }) },
  ...cagrPublicRoutes,
  ...checkoutPublicRoutes,
  ...factsPublicRoutes,
  ...emailsPublicRoutes,
  ...geosPublicRoutes,
  ...keywordsPublicRoutes(loadGeosTable),
  ...ledgerPublicRoutes,
  ...libraryPublicRoutes,
  ...listsPublicRoutes,
  ...terminologyPublicRoutes,
];

/** SPEC §2 "Research-group routes": research users and admins. */
const researchRoutes: RouteObject[] = [
  ...organizationsResearchRoutes,
  ...peopleResearchRoutes,
  ...emailsResearchRoutes,
  ...keywordsResearchRoutes,
  ...ledgerResearchRoutes,
  ...libraryResearchRoutes,
  ...listsResearchRoutes,
  ...rawDataResearchRoutes,
  ...urlsResearchRoutes,
  ...taggingRulesResearchRoutes,
  ...terminologyResearchRoutes,
];

/** SPEC §2 "Admin-group routes". */
const adminRoutes: RouteObject[] = [
  ...factsAdminRoutes,
  ...settingsAdminRoutes,
  ...usersAdminRoutes,
];

/** SPEC §2 "Public-tenant-admin group routes": users who may manage tenants. */
const tenantAdminRoutes: RouteObject[] = [
  ...clientsTenantAdminRoutes,
  ...geosTenantAdminRoutes,
];

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    // Shown while a lazily loaded page's code arrives on the first load.
    hydrateFallbackElement: <LinearProgress aria-label="Loading" />,
    // Used only when the shell itself fails; page errors render inside the shell below.
    errorElement: <RouteErrorPage />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        children: [
          ...publicRoutes,
          guardedRoutes('research', researchRoutes),
          guardedRoutes('admin', adminRoutes),
          guardedRoutes('tenant-admin', tenantAdminRoutes),
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
