/**
 * Relations both ways (GET {resource}/{id}/related/): whatever points at a
 * record — every relation field of any resource whose targets include its
 * kind, and the extensions' groups (the lists holding it) — in groups of one
 * page each, derived from the catalog rather than written per page. Linked records are read at the
 * caller's visibility (visibility.ts), only from resources and relation
 * fields the caller may read, and presented with readable fields only.
 */
import type { AccessLevel, RelatedGroup, RelatedGroups, RelatedItem, RelatedRef, RelatedSummaryPart } from '../contracts.ts';
import type { Tx } from '../db/client.ts';
import { fieldError } from './errors.ts';
import type { Catalog } from './catalog.ts';
import type { BacklinkGroup } from './extensions.ts';
import type { EngineContext } from './context.ts';
import { parseListQuery, parsePaging } from './list-query.ts';
import * as repo from './repository.ts';
import type { Resource } from './resource.ts';
import type { ResourceService } from './service.ts';
import { mayReadField, mayReadResource, visibleTo } from './visibility.ts';

export const RELATED_DEFAULT_LIMIT = 10;
const PARAMETERS = ['group', 'limit', 'offset'];
/** Long text in a second line is cut here. */
const SUMMARY_TEXT_MAX = 120;
/** At most this many related records of one many-valued field in a second line. */
const SUMMARY_REFS_MAX = 3;

/** Where records pointing at a record come from: a relation field of a resource, or an extension's group (field null, e.g. list memberships). */
export interface BacklinkSource {
  key: string;
  label: string;
  resource: Resource;
  field: string | null;
  page?: BacklinkGroup['page'];
}

export interface RelatedQuery {
  group: string | null;
  limit: number;
  offset: number;
}

const pluralOf = (resource: Resource) => resource.plural ?? `${resource.label}s`;

/** The sources a reader at `access` may see for records of `resource`, in catalog order, the extensions' groups last. */
export function backlinkSources(catalog: Catalog, resource: Resource, access: AccessLevel): BacklinkSource[] {
  const sources: BacklinkSource[] = catalog
    .referrersOf(resource.kind)
    .filter(({ resource: source, field, spec }) => spec.backlinks !== false && mayReadResource(source, access) && mayReadField(source.fields[field]!, access))
    .map(({ resource: source, field, spec }) => ({ key: `${source.kind}.${field}`, label: spec.inverseLabel ?? pluralOf(source), resource: source, field }));
  for (const group of catalog.extensions.flatMap((extension) => extension.backlinks?.(resource, catalog.resources) ?? [])) {
    if (mayReadResource(group.resource, access)) sources.push({ ...group, field: null });
  }
  // Two fields of one resource pointing here would read alike: the field tells them apart.
  for (const source of sources) {
    if (source.field && sources.some((other) => other !== source && other.label === source.label && other.resource === source.resource)) {
      source.label = `${source.label} (${source.field.replace(/_/g, ' ')})`;
    }
  }
  return sources;
}

/** The query string of GET {resource}/{id}/related/: text as sent, or numbers where the route's schema read them. */
export function parseRelatedQuery(query: Record<string, unknown>): RelatedQuery {
  const raw: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!PARAMETERS.includes(name)) throw fieldError(name, `Unknown parameter. Use ${PARAMETERS.join(', ')}.`);
    if (typeof value !== 'string' && typeof value !== 'number') throw fieldError(name, 'Give this parameter once.');
    raw[name] = String(value);
  }
  return { group: raw['group']?.trim() || null, ...parsePaging(query, { defaultLimit: RELATED_DEFAULT_LIMIT }) };
}

/** GET {resource}/{id}/related/: the groups with something in them, or the one `group` names (even when empty). */
export async function relatedGroups({ tx, actor }: EngineContext, service: ResourceService, rowId: string, query: RelatedQuery): Promise<RelatedGroups> {
  const access = actor.access;
  const sources = backlinkSources(service.catalog, service.resource, access);
  const wanted = query.group === null ? sources : sources.filter((source) => source.key === query.group);
  if (query.group !== null && wanted.length === 0) {
    throw fieldError('group', sources.length > 0 ? `Unknown group. Use one of: ${sources.map((source) => source.key).join(', ')}.` : 'Nothing can point at this record.');
  }
  await service.findVisible(tx, access, rowId);
  const groups: RelatedGroup[] = [];
  for (const source of wanted) {
    const group = await groupPage(tx, service, access, source, rowId, query);
    if (group.count > 0 || query.group !== null) groups.push(group);
  }
  return { groups };
}

async function groupPage(tx: Tx, target: ResourceService, access: AccessLevel, source: BacklinkSource, rowId: string, page: RelatedQuery): Promise<RelatedGroup> {
  const visible = visibleTo(access);
  const service = target.services.of(source.resource);
  let rows: repo.Row[];
  let records: Array<Record<string, unknown>>;
  let count: number;
  let estimate = false;
  if (source.field === null) {
    ({ rows, count } = await source.page!(tx, visible, rowId, page));
    records = await service.presentRows(tx, access, rows);
  } else {
    // The source's own list, filtered by the relation field: the same visibility, status and order as its table.
    const listQuery = { ...parseListQuery(source.resource, {}, access), limit: page.limit, offset: page.offset, filters: { [source.field]: [rowId] } };
    const found = await repo.selectPage(tx, source.resource, visible, listQuery, undefined, 'capped', service.pageColumns(visible));
    rows = found.rows;
    if (found.total === null) {
      // An empty page carries no total: past the end, count on their own.
      ({ count, estimate } = page.offset > 0 ? await repo.countMatching(tx, source.resource, visible, listQuery) : { count: 0, estimate: false });
    } else if (found.total > repo.EXACT_COUNT_CAP) {
      count = await repo.estimateMatching(tx, source.resource, visible, listQuery);
      estimate = true;
    } else {
      count = found.total;
    }
    records = await service.presentRows(tx, access, rows, found.read);
  }
  const group: RelatedGroup = {
    key: source.key,
    label: source.label,
    resource: source.resource.kind,
    field: source.field,
    count,
    limit: page.limit,
    offset: page.offset,
    results: records.map((record, index) => itemOf(source.resource, rows[index]!, record)),
  };
  if (estimate) group.count_is_estimate = true;
  return group;
}

function itemOf(resource: Resource, row: repo.Row, record: Record<string, unknown>): RelatedItem {
  const quick = resource.quickSearch;
  const slug = quick?.slugColumn ? row[quick.slugColumn] : null;
  return {
    id: String(record['id']),
    display_name: (record['display_name'] as string | null) ?? null,
    kind: resource.kind,
    type: quick?.typeColumn ? String(row[quick.typeColumn]) : resource.type,
    slug: typeof slug === 'string' ? slug : null,
    visibility: resource.hasVisibility ? String(record['visibility']) : null,
    summary: summaryOf(resource, record),
  };
}

/** The record's declared summary fields that the reader received, as short text (related records with their reference). */
function summaryOf(resource: Resource, record: Record<string, unknown>): RelatedSummaryPart[] {
  const parts: RelatedSummaryPart[] = [];
  for (const name of resource.summary ?? []) {
    const field = resource.fields[name]!;
    const value = record[name];
    if (!(name in record) || value === null || value === undefined || value === '' || field.kind === 'boolean') continue;
    if (field.relation) {
      const refs = (Array.isArray(value) ? value : [value]) as RelatedRef[];
      for (const ref of refs.slice(0, SUMMARY_REFS_MAX)) parts.push({ field: name, kind: field.kind, text: ref.display_name ?? '', ref });
      continue;
    }
    const text = Array.isArray(value) ? value.map(String).join(', ') : field.choiceLabels?.[String(value)] ?? String(value);
    const line = text.replace(/\s+/g, ' ').trim();
    if (line === '') continue;
    parts.push({ field: name, kind: field.kind, text: line.length > SUMMARY_TEXT_MAX ? `${line.slice(0, SUMMARY_TEXT_MAX - 1).trimEnd()}…` : line, ref: null });
  }
  return parts;
}
