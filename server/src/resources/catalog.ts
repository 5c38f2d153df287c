/**
 * Every resource the engine serves, by kind, and who points at whom: the
 * relation fields that reference each kind. Relations, merges and deletes
 * look targets and referrers up here.
 */
import type { FieldType, RelationSpec } from './fields.ts';
import type { Resource } from './resource.ts';

export interface Referrer {
  resource: Resource;
  field: string;
  spec: RelationSpec;
}

export class Catalog {
  private readonly byKind = new Map<string, Resource>();

  constructor(readonly resources: Resource[]) {
    for (const resource of resources) {
      if (this.byKind.has(resource.kind)) throw new Error(`Two resources of kind "${resource.kind}".`);
      this.byKind.set(resource.kind, resource);
    }
    for (const resource of resources) {
      for (const [name, field] of relationFields(resource)) {
        for (const target of field.relation!.targets) {
          if (!this.byKind.has(target)) throw new Error(`${resource.kind}.${name}: unknown relation target "${target}".`);
        }
      }
    }
  }

  get(kind: string): Resource {
    const resource = this.byKind.get(kind);
    if (!resource) throw new Error(`Unknown resource kind "${kind}".`);
    return resource;
  }

  /** The relation fields that point at records of `kind`. */
  referrersOf(kind: string): Referrer[] {
    return this.resources.flatMap((resource) =>
      relationFields(resource)
        .filter(([, field]) => field.relation!.targets.includes(kind))
        .map(([name, field]) => ({ resource, field: name, spec: field.relation! })),
    );
  }
}

export function relationFields(resource: Resource): Array<[string, FieldType]> {
  return Object.entries(resource.fields).filter(([, field]) => field.relation !== undefined);
}
