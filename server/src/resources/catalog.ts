/**
 * Every resource the engine serves, by kind, and who points at whom: the
 * relation fields that reference each kind. Relations, merges and deletes
 * look targets and referrers up here, and the engine its extensions.
 */
import type { EngineExtension } from './extensions.ts';
import type { FieldType, RelationSpec } from './fields.ts';
import type { Resource } from './resource.ts';

export interface Referrer {
  resource: Resource;
  field: string;
  spec: RelationSpec;
}

/** Each relation's target resources, registered by the catalog that holds the relation. */
const TARGETS = new WeakMap<RelationSpec, Resource[]>();

/** For each resource whose records can be list items, the resource of the lists holding them (resource.ts holdsListItems). */
const LIST_HOLDERS = new WeakMap<Resource, Resource>();

/** The resource of the lists a resource's records can be items of, when the catalog holds one. */
export function listHolderOf(resource: Resource): Resource | null {
  return LIST_HOLDERS.get(resource) ?? null;
}

/** The resources a relation points at (for SQL that must see their tables and visibility). */
export function relationTargets(spec: RelationSpec): Resource[] {
  const targets = TARGETS.get(spec);
  if (!targets) throw new Error(`Relation to ${spec.targets.join(', ')} is not in a catalog.`);
  return targets;
}

export class Catalog {
  private readonly byKind = new Map<string, Resource>();

  constructor(
    readonly resources: Resource[],
    /** Capabilities outside the engine's core that hook into it (extensions.ts). */
    readonly extensions: EngineExtension[] = [],
  ) {
    for (const resource of resources) {
      if (this.byKind.has(resource.kind)) throw new Error(`Two resources of kind "${resource.kind}".`);
      this.byKind.set(resource.kind, resource);
    }
    for (const resource of resources) {
      for (const [name, field] of relationFields(resource)) {
        for (const target of field.relation!.targets) {
          if (!this.byKind.has(target)) throw new Error(`${resource.kind}.${name}: unknown relation target "${target}".`);
        }
        const targets = field.relation!.targets.map((target) => this.byKind.get(target)!);
        // Who may read a reference follows from its targets (visibility.ts fieldReadAccess): one audience for all of them.
        if (new Set(targets.map((target) => target.readAccess ?? 'public')).size > 1) {
          throw new Error(`${resource.kind}.${name}: the targets of one relation must share their readAccess.`);
        }
        TARGETS.set(field.relation!, targets);
      }
    }
    const holder = resources.find((resource) => resource.holdsListItems);
    for (const resource of resources) if (resource.listItem && holder) LIST_HOLDERS.set(resource, holder);
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
