/**
 * The browser tab's title for every route: "{page} · {section} · {tenant}", e.g.
 * "Acme Corp · Organizations · Demo". The section comes from the first path segment
 * (`sectionTitle`), the tenant from GET tenant/, and the page part from the one page that
 * calls `usePageTitle` (record pages, forms, status pages); list pages have no page part.
 */
import { createContext, useCallback, useContext, useEffect, useId, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useGetTenantQuery } from '../api/api';
import { tenantDisplayName } from '../api/tenant-name';

/** Sections by first path segment (SPEC §2's routes); the tabs use the same labels. */
const SECTIONS: Record<string, string> = {
  rawdata: 'Raw Data',
  keywords: 'Keywords',
  emails: 'Emails',
  people: 'People',
  organizations: 'Organizations',
  ledger: 'Ledger',
  library: 'Library',
  lists: 'Lists',
  facts: 'Intelbooks',
  s: 'Intelbooks',
  search: 'Search',
  operator: 'Search',
  login: 'Sign in',
  menu: 'Menu',
  geos: 'Geos',
  cities: 'Geos',
  terminology: 'Terminology',
  urls: 'URLs',
  taggingrules: 'Tagging rules',
  users: 'Users',
  clients: 'Tenants',
  settings: 'Settings',
  categories: 'Categories',
  sections: 'Sections',
  shortcuts: 'Quick collection',
  'suggested-entities': 'Suggestions',
  cagr: 'CAGR calculator',
  checkout: 'Payment',
};

/** The section a path belongs to ("/organizations/12" → "Organizations"); null for the home page and unknown paths. */
export function sectionTitle(pathname: string): string | null {
  const segment = pathname.split('/')[1] ?? '';
  return SECTIONS[segment] ?? null;
}

/** The document title from its parts: empty parts and a page part equal to its section are left out. */
export function composeTitle(page: string | null, section: string | null, tenant: string | null): string {
  const parts = [page === section ? null : page, section, tenant]
    .map((part) => part?.trim() ?? '')
    .filter((part) => part !== '');
  return parts.length > 0 ? parts.join(' · ') : 'intelnotes';
}

type SetPart = (key: string, title: string | null | undefined) => void;

const SetPageTitle = createContext<SetPart>(() => {});

/** Keeps document.title in step with the route, the page's own part and the tenant's name. */
export function PageTitleProvider({ children }: { children: ReactNode }) {
  // The page parts of the mounted callers, in the order they mounted: effects run children
  // first, so the first one given is the innermost (a "not found" message inside a record page).
  const [parts, setParts] = useState<ReadonlyMap<string, string | null>>(new Map());
  const setPart = useCallback<SetPart>((key, title) => {
    setParts((current) => {
      const next = new Map(current);
      if (title === undefined) next.delete(key);
      else next.set(key, title);
      return next;
    });
  }, []);
  const { pathname } = useLocation();
  const { data: tenant } = useGetTenantQuery();
  const tenantName = tenant?.exists ? tenantDisplayName(tenant) : null;
  const page = [...parts.values()].find((part) => part !== null) ?? null;
  const title = composeTitle(page, sectionTitle(pathname), tenantName);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return <SetPageTitle value={setPart}>{children}</SetPageTitle>;
}

/**
 * The page's own part of the title (a record's name, "New organization", "Access denied")
 * while the calling component is mounted; null while it is not known yet.
 */
export function usePageTitle(title: string | null): void {
  const setPart = useContext(SetPageTitle);
  const key = useId();
  useEffect(() => setPart(key, title), [setPart, key, title]);
  useEffect(() => () => setPart(key, undefined), [setPart, key]);
}
