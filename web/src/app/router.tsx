import LinearProgress from '@mui/material/LinearProgress';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { NotAvailableYet } from '../components/NotAvailableYet';
import { NotFoundPage } from '../components/NotFoundPage';
import { RouteErrorPage } from '../components/RouteErrorPage';
import { LoginPage } from '../features/auth/LoginPage';
import { HomePage } from '../features/home/HomePage';
import { libraryPublicRoutes, libraryResearchRoutes } from '../features/library/routes';
import { MenuPage } from '../features/menu/MenuPage';
import { clientsTenantAdminRoutes } from '../features/clients/routes';
import { organizationsPublicRoutes, organizationsResearchRoutes } from '../features/organizations/routes';
import { peoplePublicRoutes, peopleResearchRoutes } from '../features/people/routes';
import { SearchPage } from '../features/search/SearchPage';
import { settingsAdminRoutes } from '../features/settings/routes';
import { usersAdminRoutes } from '../features/users/routes';
import { RequireAccess } from './guards';
import { RootLayout } from './layout/RootLayout';

/** A route of SPEC §2 whose screen is not built yet: it says so instead of showing a 404. */
const notYet = (path: string, feature: string): RouteObject => ({
  path,
  element: <NotAvailableYet feature={feature} />,
});

const listKinds = [
  ['ledger', 'Ledger list'],
  ['library', 'Library list'],
  ['organizations', 'Organizations list'],
  ['people', 'People list'],
] as const;

/** SPEC §2 "Public routes". */
const publicRoutes: RouteObject[] = [
  { index: true, element: <HomePage /> },
  { path: 'login', element: <LoginPage /> },
  { path: 'menu', element: <MenuPage /> },
  { path: 'search', element: <SearchPage /> },
  { path: 'operator', element: <Navigate to="/search?tab=1" replace /> },
  ...organizationsPublicRoutes,
  ...peoplePublicRoutes,
  notYet('organizations/subquery', 'Organizations subquery'),
  notYet('cagr', 'CAGR calculator'),
  notYet('checkout', 'Payment confirmation'),
  notYet('emails/add', 'Join the distribution list'),
  notYet('facts/view', 'Intelbooks'),
  notYet('s/:code', 'Shared intelbook'),
  notYet('geos', 'Geos'),
  notYet('keywords', 'Keywords'),
  notYet('ledger', 'Ledger'),
  notYet('ledger/:id', 'Ledger entry'),
  ...libraryPublicRoutes,
  notYet('lists', 'Lists'),
  ...listKinds.map(([kind, label]) => notYet(`lists/${kind}/:slug`, label)),
  notYet('terminology', 'Terminology'),
];

/** SPEC §2 "Research-group routes": research users and admins. */
const researchRoutes: RouteObject[] = [
  ...organizationsResearchRoutes,
  ...peopleResearchRoutes,
  notYet('emails', 'Email list'),
  notYet('emails/domains/:id/edit', 'Edit domain'),
  notYet('keywords/create', 'New keyword'),
  notYet('keywords/:id/edit', 'Edit keyword'),
  notYet('ledger/create', 'New ledger entry'),
  notYet('ledger/:id/edit', 'Edit ledger entry'),
  ...libraryResearchRoutes,
  notYet('lists/create', 'New list'),
  ...listKinds.map(([kind, label]) => notYet(`lists/${kind}/:slug/edit`, `Edit ${label.toLowerCase()}`)),
  notYet('rawdata', 'Raw data'),
  notYet('rawdata/create', 'New raw data'),
  notYet('rawdata/quick-create', 'Quick collection'),
  notYet('rawdata/:id/edit', 'Edit raw data'),
  notYet('rawdata/buckets/create', 'New bucket'),
  notYet('rawdata/buckets/:id/edit', 'Edit bucket'),
  notYet('shortcuts', 'Quick collection shortcuts'),
  notYet('urls', 'URLs'),
  notYet('urls/create', 'New URL'),
  notYet('urls/:id/edit', 'Edit URL'),
  notYet('suggested-entities/organizations/:id/edit', 'Review suggested organization'),
  notYet('suggested-entities/people/:id/edit', 'Review suggested person'),
  notYet('taggingrules', 'Tagging rules'),
  notYet('taggingrules/create', 'New tagging rule'),
  notYet('taggingrules/:id/edit', 'Edit tagging rule'),
  notYet('terminology/create', 'New term'),
  notYet('terminology/:id/edit', 'Edit term'),
];

/** SPEC §2 "Admin-group routes". */
const adminRoutes: RouteObject[] = [
  notYet('categories', 'Categories'),
  notYet('categories/create', 'New category'),
  notYet('categories/:id/edit', 'Edit category'),
  notYet('facts', 'Intelbooks editor'),
  notYet('facts/create', 'New intelbook fact'),
  notYet('facts/:id/edit', 'Edit intelbook fact'),
  notYet('sections', 'Sections'),
  notYet('sections/create', 'New section'),
  notYet('sections/:id/edit', 'Edit section'),
  ...settingsAdminRoutes,
  ...usersAdminRoutes,
];

/** SPEC §2 "Public-tenant-admin group routes": users who may manage tenants. */
const tenantAdminRoutes: RouteObject[] = [
  ...clientsTenantAdminRoutes,
  notYet('geos/create', 'New geo'),
  notYet('geos/:id/edit', 'Edit geo'),
  notYet('cities/create', 'New city'),
  notYet('cities/:id/edit', 'Edit city'),
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
          { element: <RequireAccess group="research" />, children: researchRoutes },
          { element: <RequireAccess group="admin" />, children: adminRoutes },
          { element: <RequireAccess group="tenant-admin" />, children: tenantAdminRoutes },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
