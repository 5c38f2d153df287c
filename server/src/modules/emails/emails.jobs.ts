/** The email list's job: enriching a new domain (domain-enrichment.ts). */
import type { JobHandlers } from '../../jobs/registry.ts';
import type { Catalog } from '../../resources/catalog.ts';
import { DomainEnrichment, OFFLINE, type EnrichmentDeps } from './domain-enrichment.ts';

export function emailsJobs(catalog: Catalog, deps: EnrichmentDeps = OFFLINE): JobHandlers {
  const enrichment = new DomainEnrichment(catalog, deps);
  return {
    'dxlist.enrich_domain': { run: (job) => enrichment.run(job), failed: (ctx, failure) => enrichment.failed(ctx, failure) },
  };
}
