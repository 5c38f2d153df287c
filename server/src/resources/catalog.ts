/**
 * Every resource the engine serves, by kind, and who points at whom: the
 * relation fields that reference each kind. Relations, merges and deletes
 * look targets and referrers up here, and the engine its extensions.
 */
import type { EngineExtension } from './extensions.ts';
import type { FieldType, RelationSpec } from './fields.ts';
import type { LinkFilter, Resource } from './resource.ts';

/** One step of a link filter as the catalog resolved it: the resource walked into and the relation fields that lead there. */
export interface LinkHop {
  /** Back: rows of `resource` whose `fields[0]` holds the current row. Forward: the current row's `fields` hold records of `resource`. */
  direction: 'back' | 'forward';
  resource: Resource;
  /** The relation fields, on `resource` (back) or on the current row's resource (forward). */
  fields: string[];
  /** The current row's resource (forward: where the fields are declared). */
  from: Resource;
}
const LINK_HOPS = new WeakMap<LinkFilter, LinkHop[]>();

/** The resolved steps of a link filter (registered by the catalog that holds its resource). */
export function linkHops(filter: LinkFilter): LinkHop[] {
  const hops = LINK_HOPS.get(filter);
  if (!hops) throw new Error('A link filter that is not in a catalog.');
  return hops;
}

/** The kinds of record a link filter's ids are (its last step's: a back step's resource, a forward step's relation targets). */
export function linkTargets(filter: LinkFilter): string[] {
  const last = linkHops(filter).at(-1)!;
  const kinds = last.direction === 'back' ? [last.resource.kind] : last.fields.flatMap((field) => last.from.fields[field]?.relation?.targets ?? []);
  return [...new Set(kinds)];
}

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
    for (const resource of resources) {
      for (const [name, filter] of Object.entries(resource.links ?? {})) LINK_HOPS.set(filter, this.resolveLink(resource, name, filter));
    }
    const holder = resources.find((resource) => resource.holdsListItems);
    for (const resource of resources) if (resource.listItem && holder) LIST_HOLDERS.set(resource, holder);
  }

  /** A link filter's steps, checked: each names a relation that leads from the current resource to the next. */
  private resolveLink(resource: Resource, name: string, filter: LinkFilter): LinkHop[] {
    const where = `${resource.kind}.links.${name}`;
    if (name in resource.fields) throw new Error(`${where}: a field has that name.`);
    let current = resource;
    return filter.path.map((step, index) => {
      const last = index === filter.path.length - 1;
      if ('from' in step) {
        const from = this.byKind.get(step.from);
        const relation = from?.fields[step.field]?.relation;
        if (!from || !relation?.targets.includes(current.kind)) throw new Error(`${where}: ${step.from}.${step.field} is no relation to ${current.kind}.`);
        const hop: LinkHop = { direction: 'back', resource: from, fields: [step.field], from: current };
        current = from;
        return hop;
      }
      const fields = Array.isArray(step.field) ? step.field : [step.field];
      const targets = fields.flatMap((field) => current.fields[field]?.relation?.targets ?? [null]);
      if (targets.includes(null)) throw new Error(`${where}: ${fields.join(', ')} must be relations of ${current.kind}.`);
      if (!last && (fields.length !== 1 || targets.length !== 1)) throw new Error(`${where}: only the last step may lead to several resources.`);
      const hop: LinkHop = { direction: 'forward', resource: this.byKind.get(targets[0]!)!, fields, from: current };
      current = hop.resource;
      return hop;
    });
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
