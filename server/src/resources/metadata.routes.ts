/**
 * GET resources/: every resource's fields, filters and ordering, so the web
 * app's table, form and detail page are driven by the same declarations.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ResourceMeta } from '../contracts.ts';
import { filterNames, orderingNames } from './list-query.ts';
import type { Resource } from './resource.ts';

export function resourceMeta(resource: Resource): ResourceMeta {
  const filters = filterNames(resource);
  const ordering = orderingNames(resource);
  return {
    kind: resource.kind,
    type: resource.type,
    label: resource.label,
    path: resource.path,
    write_access: resource.writeAccess,
    fields: Object.entries(resource.fields).map(([name, field]) => ({
      name,
      kind: field.kind,
      max_length: field.maxLength ?? null,
      multiline: field.multiline ?? false,
      choices: field.choices ? [...field.choices] : null,
      default: field.defaultValue ?? null,
      filterable: filters.includes(name),
      orderable: ordering.includes(name),
    })),
    ordering,
    filters,
    name_fields: resource.identity?.names ?? [],
    list_kind: resource.listItem?.listKind ?? null,
  };
}

export async function metadataRoutes(app: FastifyInstance, { resources }: { resources: Resource[] }): Promise<void> {
  const body = resources.map(resourceMeta);
  app.get('/resources/', {
    schema: { tags: ['resources'], summary: 'Fields, filters and ordering of every resource', response: { 200: Type.Array(ResourceMeta) } },
  }, async () => body);
}
