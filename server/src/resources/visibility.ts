/**
 * Which visibilities each audience reads (SPEC §1, §6; DESIGN "Audiences") —
 * the one place that decides it for lists, details, search, filters,
 * relations, backlinks, exports and bulk actions. Research users are the
 * team's curators: they read hidden records like admins, so a hidden record
 * they just created never turns into "not found" for them. Fields restricted
 * to admins stay admin-only (field readAccess), and the home page's entity
 * counts keep SPEC §1's rule per audience (tools/counts.routes.ts: hidden
 * counts for admins only).
 *
 * Relations follow the same rule (docs/engine.md, "Relations show only what the reader may
 * read"): a reference is a field the reader may read only when they may read the resource it
 * points at (fieldReadAccess), and only to target rows they may see (visibleCondition).
 */
import { ACCESS_LEVELS, type AccessLevel } from '../contracts.ts';
import { atLeast } from '../auth/access.ts';
import { relationTargets } from './catalog.ts';
import type { FieldType, Visibility } from './fields.ts';
import type { Resource } from './resource.ts';

const READABLE: Record<AccessLevel, Visibility[]> = {
  public: ['public'],
  paywall: ['public', 'paywalled'],
  research: ['public', 'paywalled', 'hidden'],
  admin: ['public', 'paywalled', 'hidden'],
};

export const visibleTo = (access: AccessLevel): Visibility[] => READABLE[access];

/** Whether a reader at `access` may read a resource's records at all (its readAccess; everyone by default). */
export const mayReadResource = (resource: Pick<Resource, 'readAccess'>, access: AccessLevel): boolean =>
  !resource.readAccess || atLeast(access, resource.readAccess);

/** The highest of some access levels (the audience that may read them all). */
export const highestAccess = (levels: AccessLevel[]): AccessLevel =>
  ACCESS_LEVELS[Math.max(...levels.map((level) => ACCESS_LEVELS.indexOf(level)))]!;

/**
 * The audience a field is read by: its own readAccess (everyone by default) and, for a
 * relation, the readAccess of the resources it points at — a reference names a record (its
 * id and name), so a reader who may not read those records does not get the field: it is
 * left out of their records, exports, filters and available-filters, as a restricted field is
 * (raw data's `bucket` and `source` point at research-only buckets and source URLs). The
 * targets of one relation share their readAccess (the catalog checks it).
 */
export function fieldReadAccess(field: FieldType): AccessLevel {
  const levels: AccessLevel[] = [field.readAccess ?? 'public'];
  if (field.relation) levels.push(...relationTargets(field.relation).map((target) => target.readAccess ?? 'public'));
  return highestAccess(levels);
}

/** Whether a reader at `access` may read (and so filter, compare or export) the field. */
export const mayReadField = (field: FieldType, access: AccessLevel): boolean => atLeast(access, fieldReadAccess(field));
