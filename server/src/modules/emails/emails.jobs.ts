/** The email list's job: enriching a new domain (domain-enrichment.ts). */
import type { JobHandlers } from '../../jobs/registry.ts';
import type { DomainEnrichment } from './domain-enrichment.ts';

export function emailsJobs(enrichment: DomainEnrichment): JobHandlers {
  return {
    'dxlist.enrich_domain': { run: (job) => enrichment.run(job), failed: (ctx, failure) => enrichment.failed(ctx, failure) },
  };
}
