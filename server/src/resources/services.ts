/**
 * One ResourceService per resource of a catalog — and one per reviewed resource's suggestions —
 * built once, by the engine (engine.ts). Routes, jobs, hooks and module services take theirs from
 * here instead of building their own: a service keeps state of the database it serves (its
 * search statistics), so two services of one resource would each learn it, and two engines
 * (two databases in one process) must never share one.
 */
import type { Catalog } from './catalog.ts';
import { reviewView, type Resource } from './resource.ts';
import { ResourceService } from './service.ts';

/** The word of a reviewed resource in its paths: assets/{segment}/, suggested-entities/{segment}/. */
export const segmentOf = (resource: Resource): string => resource.path.split('/').pop()!;

/** A reviewed resource's suggestions: the same resource serving its suggested rows, at suggested-entities/{segment}/. */
export const suggestionsView = (resource: Resource): Resource => reviewView(resource, 'suggested', `/suggested-entities/${segmentOf(resource)}`);

export class ResourceServices {
  private readonly byKind = new Map<string, ResourceService>();
  private readonly suggestionsByKind = new Map<string, ResourceService>();

  constructor(readonly catalog: Catalog) {
    for (const resource of catalog.resources) {
      this.byKind.set(resource.kind, new ResourceService(resource, this));
      if (resource.review) this.suggestionsByKind.set(resource.kind, new ResourceService(suggestionsView(resource), this));
    }
  }

  /** The service of the resource of `kind` (its curated records, for a reviewed one). */
  get(kind: string): ResourceService {
    const service = this.byKind.get(kind);
    if (!service) throw new Error(`Unknown resource kind "${kind}".`);
    return service;
  }

  /** The service of a reviewed resource's suggestions. */
  suggestions(kind: string): ResourceService {
    const service = this.suggestionsByKind.get(kind);
    if (!service) throw new Error(`${kind} does not declare review.`);
    return service;
  }

  /** The service serving `resource`: its records, or its suggestions for the suggestions view. */
  of(resource: Resource): ResourceService {
    return resource.review && resource.status === 'suggested' ? this.suggestions(resource.kind) : this.get(resource.kind);
  }

  /** Every resource's service, in catalog order. */
  all(): ResourceService[] {
    return [...this.byKind.values()];
  }
}
