/**
 * GET resources/: every resource's fields, filters and ordering, so the web
 * app's table, form and detail page are driven by the same declarations.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ResourceMeta, type FieldMeta } from '../contracts.ts';
import { BULK_MAX_ROWS, bulkActions } from '../resources/bulk.ts';
import { DEFAULT_ORDERING, fieldLookups, filterNames, groupableFields, orderingNames } from '../resources/list-query.ts';
import { linkTargets, type Catalog } from '../resources/catalog.ts';
import { fieldSection } from '../resources/fields.ts';
import type { Resource } from '../resources/resource.ts';
import { suggestionsView } from '../resources/services.ts';
import { fieldReadAccess, highestAccess } from '../resources/visibility.ts';

export function resourceMeta(resource: Resource, catalog: Catalog): ResourceMeta {
  const suggestions = resource.review ? suggestionsView(resource) : null;
  return {
    kind: resource.kind,
    type: resource.type,
    label: resource.label,
    path: resource.path,
    write_access: resource.writeAccess,
    fields: fieldsMeta(resource, catalog),
    ordering: orderingNames(resource),
    filters: filterNames(resource),
    group_by: groupableFields(resource, 'admin'),
    default_ordering: resource.defaultOrdering ?? DEFAULT_ORDERING,
    // Every field's, whoever reads this: a restricted field's read_access says who may use them.
    lookups: fieldLookups(resource, 'admin'),
    name_fields: resource.identity?.names ?? [],
    detail_fields: resource.detailFields ?? [],
    list_kind: resource.listItem?.listKind ?? null,
    read_access: resource.readAccess ?? 'public',
    deletable: resource.deletable !== false,
    mergeable: resource.mergeable ?? false,
    shared: resource.shared,
    links: Object.entries(resource.links ?? {}).map(([name, filter]) => ({ name, label: filter.label, targets: linkTargets(filter).map((kind) => relationTarget(kind, catalog)) })),
    bulk_actions: bulkActions(resource, catalog),
    bulk_max_rows: BULK_MAX_ROWS,
    suggestions: suggestions && {
      path: suggestions.path,
      fields: fieldsMeta(suggestions, catalog),
      ordering: orderingNames(suggestions),
      default_ordering: suggestions.defaultOrdering ?? DEFAULT_ORDERING,
    },
  };
}

function fieldsMeta(resource: Resource, catalog: Catalog): FieldMeta[] {
  const filters = filterNames(resource);
  const ordering = orderingNames(resource);
  return Object.entries(resource.fields).map(([name, field]) => ({
    name,
    kind: field.kind,
    max_length: field.maxLength ?? null,
    multiline: field.multiline ?? false,
    choices: field.choices ? [...field.choices] : null,
    choice_labels: field.choiceLabels ?? null,
    default: field.defaultValue ?? null,
    filterable: filters.includes(name),
    orderable: ordering.includes(name),
    min: field.min ?? null,
    max: field.max ?? null,
    required: field.required ?? false,
    immutable: field.immutable ?? false,
    read_only: field.readOnly ?? false,
    editable: !field.readOnly && !field.immutable && field.kind !== 'object',
    read_access: highestAccess([fieldReadAccess(field), resource.readAccess ?? 'public']),
    write_access: field.writeAccess ?? (resource.writeAccess === 'manage-tenants' ? 'admin' : resource.writeAccess),
    relation: field.relation
      ? {
          many: field.relation.many,
          targets: field.relation.targets.map((kind) => relationTarget(kind, catalog)),
        }
      : null,
    section: fieldSection(field, name, resource.identity?.names ?? []),
    internal: field.internal ?? false,
  }));
}

/** A resource a relation (or a link filter) points at, as pickers need it. */
function relationTarget(kind: string, catalog: Catalog) {
  const target = catalog.get(kind);
  return { kind, type: target.type, label: target.label, path: target.path, detail_fields: target.detailFields ?? [] };
}

export async function metadataRoutes(app: FastifyInstance, { catalog }: { catalog: Catalog }): Promise<void> {
  const body = catalog.resources.map((resource) => resourceMeta(resource, catalog));
  app.get('/resources/', {
    schema: { tags: ['resources'], summary: 'Fields, filters and ordering of every resource', response: { 200: Type.Array(ResourceMeta) } },
  }, async () => body);
}
