/**
 * The job `dxlist.enrich_domain` (docs/emails.md "Domain enrichment"): what can be learnt about
 * an email domain, written to it in one transaction that also announces
 * domain_info_enrich_complete.
 *
 * - free mail and disposable: the lists of the `free-email-domains` and
 *   `disposable-email-domains` packages (email-address.ts), copied to the domain's addresses;
 *   each address's role flag (`role-based-email-addresses`) is checked again;
 * - the organizations whose e-mail addresses or web addresses use the domain (not for free-mail
 *   and disposable domains, which tell nothing of who uses them);
 * - whether the domain has MX records (node:dns, with a short time limit; a DNS server that does
 *   not answer leaves it unknown, null);
 * - the site's title and description, fetched through http/safe-fetch.ts (private addresses
 *   refused, size and time capped) when the settings allow it (DOMAIN_ENRICH_FETCH).
 *
 * The network is reached only through `EnrichmentDeps`, so tests give their own resolver and
 * fetcher. The job is idempotent: a second run writes the same values.
 */
import { Resolver } from 'node:dns/promises';
import type { Config } from '../../config.ts';
import { publish } from '../../events/bus.ts';
import { safeFetchText } from '../../http/safe-fetch.ts';
import type { JobContext, JobFailure } from '../../jobs/registry.ts';
import type { EngineContext } from '../../resources/context.ts';
import type { ResourceService } from '../../resources/service.ts';
import type { ResourceServices } from '../../resources/services.ts';
import { extractOrganizationSuggestion } from '../organizations/url-suggestions.ts';
import { domainTraits, isRoleLocalPart } from './email-address.ts';
import { emailDomains } from './emails.resource.ts';
import { domainItems, organizationsUsingDomain, updateItemTraits } from './emails.repository.ts';

export interface SiteInfo {
  title: string | null;
  description: string | null;
}

/** How the job reaches the network; a null member is a lookup the settings turn off. */
export interface EnrichmentDeps {
  /** true: MX records found; false: the domain has none (or does not exist); null: DNS did not answer. */
  resolveMx: ((domain: string, signal: AbortSignal) => Promise<boolean | null>) | null;
  /** The site's title and description, or null when it could not be read. */
  fetchSite: ((domain: string, signal: AbortSignal) => Promise<SiteInfo | null>) | null;
}

/** No network at all: what tests and scripts get unless they say otherwise. */
export const OFFLINE: EnrichmentDeps = { resolveMx: null, fetchSite: null };

/** DNS answers meaning "no such records" (rather than "no answer"). */
const NO_RECORDS = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN', 'ENONAME']);

/** The network lookups the settings allow. */
export function enrichmentDeps(config: Pick<Config, 'emails' | 'fetch'>): EnrichmentDeps {
  const { mxLookup, dnsTimeoutMs, fetchSites } = config.emails.enrichment;
  return {
    resolveMx: mxLookup ? (domain, signal) => lookupMx(domain, dnsTimeoutMs, signal) : null,
    fetchSite: fetchSites ? (domain) => fetchSiteInfo(domain, config.fetch) : null,
  };
}

async function lookupMx(domain: string, timeoutMs: number, signal: AbortSignal): Promise<boolean | null> {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  const cancel = () => resolver.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const records = await resolver.resolveMx(domain);
    return records.some((record) => record.exchange !== '' && record.exchange !== '.');
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    return NO_RECORDS.has(code) ? false : null;
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

async function fetchSiteInfo(domain: string, fetch: Config['fetch']): Promise<SiteInfo | null> {
  for (const url of [`https://${domain}/`, `http://${domain}/`]) {
    try {
      const page = await safeFetchText(url, { ...fetch, userAgent: 'intelnotes/1.0 (+email domain)' });
      const suggestion = extractOrganizationSuggestion(page.body, page.finalUrl);
      return { title: suggestion.name, description: suggestion.description };
    } catch {
      // The next scheme, then nothing: an unreachable site is no failure of the job.
    }
  }
  return null;
}

const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();
const clip = (value: string | null, max: number) => (value === null ? null : value.length > max ? `${value.slice(0, max - 1).trimEnd()}…` : value);

export class DomainEnrichment {
  private readonly domains: ResourceService;

  constructor(
    services: ResourceServices,
    private readonly deps: EnrichmentDeps,
  ) {
    this.domains = services.get(emailDomains.kind);
  }

  async run(job: JobContext<'dxlist.enrich_domain'>): Promise<unknown> {
    const id = job.payload.domain_id;
    const domain = await job.inTenant(async (ctx) => {
      const row = await this.find(ctx, id);
      if (row['enrichment_status'] !== 'running') await this.domains.write(ctx, row, { values: { enrichment_status: 'running' } });
      return { domain: String(row['domain']), unicode: (row['domain_unicode'] as string | null) ?? null };
    });
    const traits = domainTraits(domain.domain);
    const mx = this.deps.resolveMx ? await this.deps.resolveMx(domain.domain, job.signal) : null;
    job.signal.throwIfAborted();
    const site = this.deps.fetchSite && !traits.isDisposable ? await this.deps.fetchSite(domain.domain, job.signal) : null;
    job.signal.throwIfAborted();

    return job.inTenant(async (ctx) => {
      const row = await this.find(ctx, id);
      const using = traits.isFreeMail || traits.isDisposable ? [] : await organizationsUsingDomain(ctx.tx, domain.domain, domain.unicode);
      // Organizations linked by hand stay linked.
      const organizations = [...new Set([...((row['organizations'] as string[] | null) ?? []), ...using])];
      const written = await this.domains.write(ctx, row, {
        values: {
          is_free_mail: traits.isFreeMail,
          is_disposable: traits.isDisposable,
          mx_found: mx,
          site_title: clip(site?.title ?? null, 500),
          site_description: clip(site?.description ?? null, 2000),
          organizations,
          enrichment_status: 'completed',
          enrichment_error: null,
          enriched_at: new Date().toISOString(),
        },
      });
      const items = await domainItems(ctx.tx, id);
      await updateItemTraits(ctx.tx, id, traits, items.filter((item) => isRoleLocalPart(item.email.slice(0, item.email.lastIndexOf('@')))).map((item) => item.id));
      await publish(ctx, 'domain_info_enrich_complete', { id, updated_at: iso(written['updated_at']) });
      return { mx_found: mx, site: site !== null, organizations: using.length, addresses: items.length };
    });
  }

  /** After the last attempt: the domain says so, and the clients hear of it. */
  async failed(ctx: EngineContext, failure: JobFailure<'dxlist.enrich_domain'>): Promise<void> {
    const row = await this.domains.findVisible(ctx.tx, 'admin', failure.payload.domain_id).catch(() => null);
    if (!row) return;
    const written = await this.domains.write(ctx, row, {
      values: { enrichment_status: 'error', enrichment_error: clip(failure.reason || 'The enrichment failed.', 500) },
    });
    await publish(ctx, 'domain_info_enrich_complete', { id: row.id, updated_at: iso(written['updated_at']) });
  }

  private async find(ctx: EngineContext, id: string) {
    // A domain created by an import that has not published yet is not visible to the job: a
    // retry (with backoff) finds it once the import publishes.
    return this.domains.findVisible(ctx.tx, 'admin', id).catch(() => {
      throw new Error(`The email domain ${id} is not there (yet).`);
    });
  }
}
