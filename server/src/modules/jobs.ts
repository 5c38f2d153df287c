/** The job handlers of every module (each in its `<area>.jobs.ts`) and of the engine; jobs/registry.ts checks that every job type has one. */
import { createJobRegistry, type JobRegistry } from '../jobs/registry.ts';
import type { OptionalExtractors } from '../processing/entities/index.ts';
import { spreadsheetImportJobs } from '../resources/import-job.ts';
import { clientsJobs } from './clients/clients.jobs.ts';
import { OFFLINE, type EnrichmentDeps } from './emails/domain-enrichment.ts';
import { emailsJobs } from './emails/emails.jobs.ts';
import { probeJobs } from './probe/probe.jobs.ts';
import { rawdataJobs } from './rawdata/rawdata.jobs.ts';
import { CATALOG } from './registry.ts';

/**
 * `entityExtractors`: the optional entity extractors the settings configure (startup.ts); none by
 * default. `emailEnrichment`: how the email domain enrichment job reaches the network (its DNS
 * and site fetch, as the settings allow: startup.ts); by default not at all (tests, scripts).
 */
export const jobRegistry = (options: { entityExtractors?: OptionalExtractors; emailEnrichment?: EnrichmentDeps } = {}): JobRegistry =>
  createJobRegistry([
    probeJobs, clientsJobs, spreadsheetImportJobs(CATALOG), rawdataJobs(CATALOG, options.entityExtractors),
    emailsJobs(CATALOG, options.emailEnrichment ?? OFFLINE),
  ]);
