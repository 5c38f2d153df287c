/** The job handlers of every module (each in its `<area>.jobs.ts`) and of the engine; jobs/registry.ts checks that every job type has one. */
import { createJobRegistry, type JobRegistry } from '../jobs/registry.ts';
import { spreadsheetImportJobs } from '../resources/import-job.ts';
import type { PlannerStatistics } from '../resources/planner-statistics.ts';
import type { ResourceServices } from '../resources/services.ts';
import { clientsJobs } from './clients/clients.jobs.ts';
import type { DomainEnrichment } from './emails/domain-enrichment.ts';
import { emailsJobs } from './emails/emails.jobs.ts';
import { probeJobs } from './probe/probe.jobs.ts';
import type { RawDataReports } from './rawdata/analysis-report.ts';
import { rawdataJobs } from './rawdata/rawdata.jobs.ts';
import type { RawDataProcessing } from './rawdata/rawdata.processing.ts';

/** What the handlers run on: the engine's services (createEngine builds them once, engine.ts). */
export interface JobServices {
  services: ResourceServices;
  rawDataProcessing: RawDataProcessing;
  rawDataReports: RawDataReports;
  domainEnrichment: DomainEnrichment;
  statistics: PlannerStatistics;
}

export const jobRegistry = (engine: JobServices): JobRegistry =>
  createJobRegistry([
    probeJobs, clientsJobs, spreadsheetImportJobs(engine.services, engine.statistics), rawdataJobs(engine.rawDataProcessing, engine.rawDataReports),
    emailsJobs(engine.domainEnrichment),
  ]);
