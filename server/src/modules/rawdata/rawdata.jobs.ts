/** Raw data's jobs: processing an item (rawdata.processing.ts), the analysis report (analysis-report.ts). */
import type { JobHandlers } from '../../jobs/registry.ts';
import type { OptionalExtractors } from '../../processing/entities/index.ts';
import type { Catalog } from '../../resources/catalog.ts';
import { ResourceService } from '../../resources/service.ts';
import { RawDataReports } from './analysis-report.ts';
import { RawDataProcessing } from './rawdata.processing.ts';
import { rawData } from './rawdata.resource.ts';

export function rawdataJobs(catalog: Catalog, entityExtractors?: OptionalExtractors): JobHandlers {
  const processing = new RawDataProcessing(new ResourceService(rawData, catalog), catalog, entityExtractors);
  const reports = new RawDataReports();
  return {
    'rawdata.process': { run: (job) => processing.run(job), failed: (ctx, failure) => processing.failed(ctx, failure) },
    'rawdata.report': { run: (job) => reports.run(job), failed: (ctx, failure) => reports.failed(ctx, failure) },
  };
}
