/** The job handlers of every module (each in its `<area>.jobs.ts`) and of the engine; jobs/registry.ts checks that every job type has one. */
import type { Config } from '../config.ts';
import { createJobRegistry, type JobRegistry } from '../jobs/registry.ts';
import { spreadsheetImportJobs } from '../resources/import-job.ts';
import { clientsJobs } from './clients/clients.jobs.ts';
import { enrichmentDeps, OFFLINE } from './emails/domain-enrichment.ts';
import { emailsJobs } from './emails/emails.jobs.ts';
import { probeJobs } from './probe/probe.jobs.ts';
import { rawdataJobs } from './rawdata/rawdata.jobs.ts';
import { CATALOG } from './registry.ts';

/**
 * With the settings, jobs reach the network as they allow (email domain enrichment's DNS and
 * site fetch); without them (tests, scripts) no job does.
 */
export const jobRegistry = (config?: Pick<Config, 'emails' | 'fetch'>): JobRegistry =>
  createJobRegistry([
    probeJobs, clientsJobs, spreadsheetImportJobs(CATALOG), rawdataJobs(CATALOG),
    emailsJobs(CATALOG, config ? enrichmentDeps(config) : OFFLINE),
  ]);
