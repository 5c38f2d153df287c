/**
 * Which visibilities each audience reads (SPEC §1, §6; DESIGN "Audiences") —
 * the one place that decides it for lists, details, search, filters,
 * relations, backlinks, exports and bulk actions. Research users are the
 * team's curators: they read hidden records like admins, so a hidden record
 * they just created never turns into "not found" for them. Fields restricted
 * to admins stay admin-only (field readAccess), and the home page's entity
 * counts keep SPEC §1's rule per audience (tools/counts.routes.ts: hidden
 * counts for admins only).
 */
import type { AccessLevel } from '../contracts.ts';
import type { Visibility } from './fields.ts';

const READABLE: Record<AccessLevel, Visibility[]> = {
  public: ['public'],
  paywall: ['public', 'paywalled'],
  research: ['public', 'paywalled', 'hidden'],
  admin: ['public', 'paywalled', 'hidden'],
};

export const visibleTo = (access: AccessLevel): Visibility[] => READABLE[access];
