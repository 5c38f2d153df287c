/** Raw data's jobs: processing an item (rawdata.processing.ts), the analysis report (analysis-report.ts). */
import type { JobHandlers } from '../../jobs/registry.ts';
import type { RawDataReports } from './analysis-report.ts';
import type { RawDataProcessing } from './rawdata.processing.ts';

export function rawdataJobs(processing: RawDataProcessing, reports: RawDataReports): JobHandlers {
  return {
    'rawdata.process': { run: (job) => processing.run(job), failed: (ctx, failure) => processing.failed(ctx, failure) },
    'rawdata.report': { run: (job) => reports.run(job), failed: (ctx, failure) => reports.failed(ctx, failure) },
  };
}
